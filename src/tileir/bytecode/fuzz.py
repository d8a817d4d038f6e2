"""Mutation fuzzing of the bytecode reader (used by ``tests/bytecode/test_bytecode_fuzz.py`` and
``benchmarks/fuzz_bytecode.py``).

The contract checked: :func:`~tileir.bytecode.read_bytecode` either returns a module or raises
:class:`~tileir.bytecode.BytecodeError` -- never anything else, never an "internal" error (the
reader converts unexpected exceptions into a BytecodeError whose message says so, which the
fuzzer counts as a bug), and a module it returns can be written back (or the writer refuses it
with a :class:`~tileir.bytecode.BytecodeWriteError`).
"""

from __future__ import annotations

import random
from typing import Iterable, Optional

__all__ = ["SEED_TEXTS", "seed_corpus", "mutate", "check", "Outcome"]

#: Small modules covering most encodings (views, optional operands, regions, hints, predicates,
#: constants of several element types, globals, debug info).
SEED_TEXTS = [
    r'''cuda_tile.module @kernels {
  global @g <f32: [1.0, 2.0]> : tile<2xf32>
  entry @k(%p: tile<ptr<f32>>, %n: tile<i32>, %c: tile<i1>) optimization_hints=<sm_100 = {num_cta_in_cga = 2}> {
    %a = assume div_by<16>, %p : tile<ptr<f32>>
    %b = assume bounded<0, ?>, %n : tile<i32>
    %tv = make_tensor_view %a, shape = [%b], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(16), padding_value = zero, tensor_view<?xf32, strides=[1]>>
    %t0 = make_token : token
    %x, %t1 = load_view_tko weak %pv[%n] token = %t0 optimization_hints = <sm_100 = {latency = 3}> : partition_view<tile=(16), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    %y = addf %x, %x rounding<zero> flush_to_zero : tile<16xf32>
    %r = reduce %y dim=0 identities=[0.000000e+00 : f32] : tile<16xf32> -> tile<f32>
    (%l: tile<f32>, %h: tile<f32>) {
      %s = addf %l, %h rounding<nearest_even> : tile<f32>
      yield %s : tile<f32>
    }
    %z = if %c -> (tile<16xf32>) {
      yield %x : tile<16xf32>
    } else {
      yield %y : tile<16xf32>
    }
    %t2 = store_view_tko weak %z, %pv[%n] token = %t1 : tile<16xf32>, partition_view<tile=(16), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    %g = get_global @g : tile<ptr<f32>>
    return
  }
}''',
    r'''cuda_tile.module @kernels {
  entry @loops(%a: tile<8xi32>, %lb: tile<i32>, %ub: tile<i32>) {
    %one = constant <i32: 1> : tile<i32>
    %v = constant <i16: [1, -2, 3, 4]> : tile<4xi16>
    %b = constant <i1: [true, false, true, true]> : tile<4xi1>
    %h = constant <f16: [1.5, -2.0, 0.0, 65504.0]> : tile<4xf16>
    %f = for %i in (%lb to %ub, step %one) : tile<i32> iter_values(%acc = %a) -> (tile<8xi32>) {
      %s = addi %acc, %acc overflow<no_signed_wrap> : tile<8xi32>
      %m = muli %s, %s : tile<8xi32>
      continue %m : tile<8xi32>
    }
    %w = loop iter_values(%x = %lb) : tile<i32> -> tile<i32> {
      %c = cmpi less_than %x, %ub, signed : tile<i32> -> tile<i1>
      if %c {
        break %x : tile<i32>
      }
      %n = addi %x, %one : tile<i32>
      continue %n : tile<i32>
    }
    %sc = scan %a dim=0 reverse=true identities=[0 : i32] : tile<8xi32> -> tile<8xi32>
    (%p: tile<i32>, %q: tile<i32>) {
      %t = maxi %p, %q signed : tile<i32>
      yield %t : tile<i32>
    }
    %pm = permute %v [0] : tile<4xi16> -> tile<4xi16>
    %tok = print_tko "value %d\n", %one : tile<i32> -> token
    return
  }
}''',
]


def seed_corpus(versions: Iterable[str] = ("13.1", "13.2", "13.3", "13.4")) -> list:
    """Valid bytecode files to mutate: the seed texts in every version they encode in."""
    from ..text import parse_module
    from . import BytecodeWriteError, write_bytecode
    out = []
    for text in SEED_TEXTS:
        module = parse_module(text)
        for v in versions:
            try:
                out.append(write_bytecode(module, v))
            except BytecodeWriteError:
                pass
    return out


_INTERESTING = [0x00, 0x01, 0x7F, 0x80, 0xFF, 0xCB, 0x3F, 0x40]


def mutate(data: bytes, rng: random.Random, rounds: Optional[int] = None) -> bytes:
    """A few random byte-level edits: flips, interesting values, inserts, deletes, truncation,
    duplicated chunks and varint stretching."""
    buf = bytearray(data)
    for _ in range(rounds if rounds is not None else rng.randint(1, 4)):
        if not buf:
            buf.append(rng.randrange(256))
            continue
        kind = rng.randrange(8)
        i = rng.randrange(len(buf))
        if kind == 0:
            buf[i] ^= 1 << rng.randrange(8)
        elif kind == 1:
            buf[i] = rng.choice(_INTERESTING)
        elif kind == 2:
            buf[i] = rng.randrange(256)
        elif kind == 3:
            buf[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4)))
        elif kind == 4:
            del buf[i:i + rng.randint(1, 8)]
        elif kind == 5:
            del buf[rng.randrange(len(buf)):]
        elif kind == 6:
            j = rng.randrange(len(buf))
            k = min(len(buf), j + rng.randint(1, 16))
            buf[i:i] = buf[j:k]
        else:
            buf[i:i] = b"\xff" * rng.randint(1, 12)
    return bytes(buf)


class Outcome:
    OK = "read"
    REJECTED = "rejected"
    WRITE_REFUSED = "write refused"


def check(data: bytes) -> str:
    """Run the reader (and the writer on what it returns); return the outcome or raise
    AssertionError describing a contract violation."""
    from . import BytecodeError, BytecodeWriteError, read_bytecode, write_bytecode
    from ..ir.diagnostics import DiagnosticError
    try:
        module = read_bytecode(data)
    except BytecodeError as exc:
        if "internal:" in exc.message:
            raise AssertionError(f"reader bug: {exc.message}") from exc
        return Outcome.REJECTED
    except Exception as exc:  # noqa: BLE001
        raise AssertionError(f"read_bytecode raised {type(exc).__name__}: {exc}") from exc
    version = f"{data[8]}.{data[9]}"
    try:
        write_bytecode(module, version)
    except (BytecodeWriteError, DiagnosticError):
        return Outcome.WRITE_REFUSED
    except Exception as exc:  # noqa: BLE001
        raise AssertionError(f"write_bytecode raised {type(exc).__name__}: {exc} on a module "
                             f"read from fuzzed input") from exc
    return Outcome.OK
