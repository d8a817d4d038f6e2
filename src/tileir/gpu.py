"""Run MLIR gpu dialect programs on the CPU: ``tileir.gpu.run`` and ``tileir.gpu.launch``.

See :mod:`tileir.execute.simt` for the engine and the README for the conventions (subgroup size
32, lane numbering, shuffle validity, sparse ops).
"""

from .execute.simt import DataRaceError, Program, launch, run

__all__ = ["run", "launch", "Program", "DataRaceError"]
