"""Round-trip fuzzing: mutate valid inputs of every registered input format, and for each input
that is accepted check the round-trip invariant (:mod:`tileir.tools.roundtrip`); shrink each
failure to a minimal reproducer.

Used by ``benchmarks/fuzz_roundtrip.py`` (long runs) and ``tests/text/test_roundtrip_fuzz.py``
(a bounded run).  Input formats are registered in :data:`tileir.tools.roundtrip.INPUTS`; this
module registers the cuda_tile ones, ``text`` (token-level mutation of ``.mlir`` modules from
NVIDIA's conformance corpus, our examples and seed modules) and ``bytecode`` (byte-level
mutation of their bytecode in every version).
"""

from __future__ import annotations

import os
import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from ..ir.diagnostics import DiagnosticError
from .roundtrip import (INPUTS, InputFormat, Violation, _first_difference, check_module, ir_key,
                        register_input)

__all__ = ["FuzzReport", "fuzz", "shrink", "corpus_texts"]

_REPO = Path(__file__).resolve().parents[3]


def _conformance_dir() -> Optional[Path]:
    env = os.environ.get("TILEIR_CONFORMANCE_DIR")
    base = Path(env) if env else _REPO.parent / "shared" / "conformance"
    path = base / "cuda-tile"
    return path if path.is_dir() else None


_COMMENT = re.compile(r"^\s*//.*$", re.M)


def corpus_texts() -> list:
    """Modules to start from: the bytecode fuzzer's seeds, ``examples/*.mlir``, and each
    ``// -----`` chunk of the cuda-tile conformance ``.mlir`` files (comments removed)."""
    from ..bytecode.fuzz import SEED_TEXTS
    from ..text.expected import split_input
    texts = list(SEED_TEXTS)
    files = sorted((_REPO / "examples").glob("*.mlir"))
    conf = _conformance_dir()
    if conf is not None:
        files += sorted(conf.rglob("*.mlir"))
    for path in files:
        for chunk in split_input(path.read_text(encoding="utf-8", errors="replace")):
            text = _COMMENT.sub("", chunk.text).strip()
            if text:
                texts.append(text + "\n")
    return texts


# ---------------------------------------------------------------------------------------------
# text
# ---------------------------------------------------------------------------------------------

_TOKEN = re.compile(r'%[\w#$.]+|\^[\w]+|@[\w$.]+|![\w.$]+|#[\w.$]+|"(?:[^"\\\n]|\\.)*"|'
                    r'0x[0-9A-Fa-f]+|-?\d+\.\d*(?:[eE][-+]?\d+)?|-?\d+|[A-Za-z_][\w$.]*|->|::|\S')
_NUMBERS = ["0", "1", "-1", "2", "3", "7", "8", "16", "31", "32", "63", "64", "127", "128", "255",
            "256", "65535", "2147483647", "2147483648", "4294967295", "4294967296",
            "9223372036854775807", "9223372036854775808", "18446744073709551615",
            "18446744073709551616", "-9223372036854775808", "-9223372036854775809",
            "340282366920938463463374607431768211456", "6000000000", "1.0", "-0.0", "1.5e300", "1.0e400", "0x7FC00000",
            "0x7FF0000000000000", "0xFFFF", "3.4028235e38", "1e-45", "65504.0"]
_ELEMENTS = ["f32", "f16", "bf16", "f64", "tf32", "i1", "i8", "i16", "i32", "i64", "f8E4M3FN",
             "f8E5M2", "f8E8M0FNU", "f4E2M1FN", "ptr<f32>", "token"]
_STRINGS = ['"sm 100"', '"a\\"b"', '"\\00"', '"é"', '""', '"x.y"', '"1abc"']


def _tokens(text: str) -> list:
    return [m.group() for m in _TOKEN.finditer(text)]


class _TextMutator:
    def __init__(self, texts: list) -> None:
        vocab = set()
        for t in texts:
            vocab.update(_tokens(t))
        self.vocab = sorted(vocab) + _NUMBERS + _ELEMENTS + _STRINGS

    def __call__(self, text: str, rng: random.Random) -> str:
        for _ in range(rng.randint(1, 3)):
            toks = list(_TOKEN.finditer(text))
            if not toks:
                return text + rng.choice(self.vocab)
            m = toks[rng.randrange(len(toks))]
            s, e, t = m.start(), m.end(), m.group()
            k = rng.random()
            if k < 0.2:
                text = text[:s] + text[e:]
            elif k < 0.35:
                text = text[:s] + rng.choice(self.vocab) + " " + text[s:]
            elif k < 0.5 and t[:1].isdigit() or t[:1] == "-":
                text = text[:s] + rng.choice(_NUMBERS) + text[e:]
            elif k < 0.6:
                other = toks[rng.randrange(len(toks))]
                # duplicate a span of tokens somewhere else
                a, b = sorted((s, other.end()))
                if b - a < 400:
                    at = toks[rng.randrange(len(toks))].start()
                    text = text[:at] + text[a:b] + " " + text[at:]
            elif k < 0.7 and re.fullmatch(r"(\d+x)*[a-z]\w*", t):
                parts = t.split("x")
                parts[-1] = rng.choice(_ELEMENTS)
                text = text[:s] + "x".join(parts) + text[e:]
            elif k < 0.75 and t.startswith('"'):
                text = text[:s] + rng.choice(_STRINGS) + text[e:]
            else:
                text = text[:s] + rng.choice(self.vocab) + text[e:]
        return text


#: attribute values of every kind, swapped in for an op's own attribute in the generic form
_ATTRIBUTE_KINDS = ["true", "0 : i32", "-1 : i64", "1 : i1", "9223372036854775807 : i64",
                    "1.5 : f32", "0x7FC00000 : f32", '"s"', '"a\\"b"', "[]", "[1 : i32]", "[i32]",
                    "[[]]", "array<i32: 1>", "array<i64: 1, 2>", "array<i1: true>", "unit", "i32",
                    "!cuda_tile.tile<i32>", "{}", "{a = 1 : i32}", "@sym", "@a::@b",
                    "dense<1> : tensor<2xi32>", "#cuda_tile.rounding<zero>",
                    "#cuda_tile.signedness<signed>", "#cuda_tile.div_by<8>",
                    "#cuda_tile.optimization_hints<>", "#arith.overflow<nsw>",
                    "affine_map<(d0) -> (d0)>", "#gpu.address_space<workgroup>"]
_PROPERTIES = re.compile(r"<\{(.*?)\}>")


def _swap_generic_attribute(text: str, rng: random.Random) -> str:
    """The input in the generic form with one op attribute given a value of another kind: IR
    the custom syntax cannot express, which must still round-trip (or a form must refuse it)."""
    from ..text import parse_module, print_op
    try:
        generic = print_op(parse_module(text, "<fuzz>", allow_unregistered=True), generic=True)
    except Exception:  # noqa: BLE001 - a mutant that does not parse: leave it to the others
        return text
    lines = generic.splitlines()
    candidates = [i for i, line in enumerate(lines) if "<{" in line]
    if not candidates:
        return text
    i = rng.choice(candidates)
    m = _PROPERTIES.search(lines[i])
    names = re.findall(r"(\w+) = ", m.group(1)) if m else []
    if not names:
        return text
    name = rng.choice(names)
    body = re.sub(r"(\b" + re.escape(name) + r" = )(.*?)(?=, \w+ = |$)",
                  lambda mm: mm.group(1) + rng.choice(_ATTRIBUTE_KINDS), m.group(1), count=1)
    lines[i] = lines[i][:m.start(1)] + body + lines[i][m.end(1):]
    return "\n".join(lines)


def _mutate_text_bytes(text: str, rng: random.Random) -> str:
    """Byte-level edits of the UTF-8 text (invalid bytes read back as surrogate escapes, as
    ``tileir.load`` reads a file)."""
    from ..bytecode.fuzz import mutate
    data = mutate(text.encode("utf-8", "surrogateescape"), rng, rounds=rng.randint(1, 2))
    return data.decode("utf-8", "surrogateescape")


def _accept_text(text) -> object:
    from ..text import parse_module
    if isinstance(text, bytes):
        text = text.decode("utf-8", "surrogateescape")
    return parse_module(text, "<fuzz>", allow_unregistered=True)


def _text_tokens(text: str) -> list:
    return [m.group() for m in _TOKEN.finditer(text)]


def _join_tokens(units: list) -> str:
    return " ".join(units)


def _text_lines(text: str) -> list:
    return text.split("\n")


def _join_lines(units: list) -> str:
    return "\n".join(units)


# ---------------------------------------------------------------------------------------------
# bytecode
# ---------------------------------------------------------------------------------------------

def _bytecode_seeds(texts: list) -> list:
    from ..bytecode import write_bytecode
    from ..text import parse_module
    out = []
    for text in texts:
        try:
            module = parse_module(text, "<seed>")
        except DiagnosticError:
            continue
        for v in ("13.1", "13.2", "13.3", "13.4"):
            try:
                out.append(write_bytecode(module, v))
            except DiagnosticError:
                pass
    conf = _conformance_dir()
    if conf is not None:
        for path in sorted(conf.rglob("*")):
            if path.suffix in (".tilebc", ".tileirbc") and path.is_file():
                out.append(path.read_bytes())
    return out


def _mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    from ..bytecode.fuzz import mutate
    return mutate(data, rng)


def _accept_bytecode(data) -> object:
    from ..bytecode import read_bytecode
    return read_bytecode(data)


def _byte_units(data: bytes) -> list:
    return [data[i:i + 1] for i in range(len(data))]


def _join_bytes(units: list) -> bytes:
    return b"".join(units)


def _register_cuda_tile_inputs() -> None:
    cache: dict = {}

    def texts() -> list:
        if "t" not in cache:
            cache["t"] = corpus_texts()
        return cache["t"]

    def text_seeds() -> list:
        return texts()

    def bytecode_seeds() -> list:
        if "b" not in cache:
            cache["b"] = _bytecode_seeds(texts())
        return cache["b"]

    text_mutator: list = []

    def mutate_text(text: str, rng: random.Random) -> str:
        if not text_mutator:
            text_mutator.append(_TextMutator(texts()))
        return text_mutator[0](text, rng)

    # (token-level edits three times as often as byte-level ones)
    register_input(InputFormat("text", text_seeds, [mutate_text, mutate_text, mutate_text,
                                                    _mutate_text_bytes, _swap_generic_attribute],
                               _accept_text, [(_text_lines, _join_lines),
                                              (_text_tokens, _join_tokens)]))
    register_input(InputFormat("bytecode", bytecode_seeds, [_mutate_bytes], _accept_bytecode,
                               [(_byte_units, _join_bytes)]))


_register_cuda_tile_inputs()


# ---------------------------------------------------------------------------------------------
# MLIR upstream / gpu dialect text
# ---------------------------------------------------------------------------------------------

#: hand-written seeds with ops of every upstream dialect the gpu programs use
_MLIR_SEEDS = [
    """func.func @f(%a: memref<4x?xf32>, %i: index, %v: vector<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %x = memref.load %a[%c0, %i] : memref<4x?xf32>
  %y = math.exp %x : f32
  %s = vector.reduction <add>, %v, %y : vector<4xf32> into f32
  %j = index.add %i, %c0
  %r = scf.if %true -> (f32) {
    scf.yield %s : f32
  } else {
    scf.yield %x : f32
  }
  return %r : f32
}""".replace("%true", "%t").replace("  %r = scf.if", "  %t = arith.constant true\n  %r = scf.if"),
    """func.func @g(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
    %s = arith.addi %acc, %i : index
    scf.yield %s : index
  }
  cf.br ^bb1(%r : index)
^bb1(%x: index):
  return %x : index
}""",
]


def _mlir_corpus() -> list:
    """Seeds: the gpu-dialect conformance chunks, examples/gpu, the upstream dialect corpora
    of the tests, and a few hand-written modules (comments removed)."""
    from ..text.expected import split_input
    base = _conformance_dir()
    files = []
    if base is not None:
        files += sorted((base.parent / "gpu-dialect").glob("*.mlir"))
    files += sorted((_REPO / "examples" / "gpu").glob("*.mlir"))
    files += sorted((_REPO / "tests" / "dialects").rglob("*.mlir"))
    files += sorted((_REPO / "tests" / "execute" / "simt" / "programs").glob("*.mlir"))
    texts = list(_MLIR_SEEDS)
    for path in files:
        for chunk in split_input(path.read_text(encoding="utf-8", errors="replace")):
            text = _COMMENT.sub("", chunk.text).strip()
            if text:
                texts.append(text + "\n")
    return texts


def _register_text_format(name: str, corpus: Callable[[], list], accept: Callable,
                          generic_swaps: bool = False, **hooks) -> None:
    """A text input format: seeds from ``corpus()`` (read once), token-level mutations over the
    corpus vocabulary (three times as often as byte-level ones; with ``generic_swaps``, also
    attributes of other kinds in the generic form), shrinking by lines then tokens; ``hooks``
    are :class:`InputFormat`'s ``check``/``key``."""
    cache: dict = {}

    def texts() -> list:
        if "t" not in cache:
            cache["t"] = corpus()
        return cache["t"]

    def mutate(text: str, rng: random.Random) -> str:
        if "m" not in cache:
            cache["m"] = _TextMutator(texts())
        return cache["m"](text, rng)
    mutators = [mutate, mutate, mutate, _mutate_text_bytes]
    if generic_swaps:
        mutators.append(_swap_generic_attribute)
    register_input(InputFormat(name, texts, mutators, accept,
                               [(_text_lines, _join_lines), (_text_tokens, _join_tokens)],
                               **hooks))


_register_text_format("mlir", _mlir_corpus, _accept_text, generic_swaps=True)


# ---------------------------------------------------------------------------------------------
# tinytc
# ---------------------------------------------------------------------------------------------

def _tinytc_corpus() -> list:
    base = _conformance_dir()
    texts = []
    if base is not None:
        for path in sorted((base.parent / "tinytc").rglob("*.ir")):
            texts.append(path.read_text(encoding="utf-8", errors="replace"))
    for path in sorted((_REPO / "examples").rglob("*.ir")):
        texts.append(path.read_text(encoding="utf-8", errors="replace"))
    from ..frontends.tinytc.demo import BATCHED_GEMM
    texts.append(BATCHED_GEMM)
    return [t for t in texts if t.strip()]


def _accept_tinytc(text) -> object:
    from ..frontends import tinytc
    if isinstance(text, bytes):
        text = text.decode("utf-8", "surrogateescape")
    try:
        return tinytc.parse(text, filename="<fuzz>")
    except tinytc.TinytcError as exc:
        raise DiagnosticError([]) from exc


def _check_tinytc(prog) -> dict:
    """tinytc's invariant: the printed program parses (and checks) back and prints the same
    text."""
    from ..frontends import tinytc
    try:
        text = tinytc.print(prog)
    except Exception as exc:  # noqa: BLE001
        raise Violation("tinytc: print crash", f"{type(exc).__name__}: {exc}") from exc
    try:
        back = tinytc.parse(text, filename="<round-trip>")
    except tinytc.TinytcError as exc:
        raise Violation("tinytc: output does not read back", f"{exc}\n--- output ---\n{text}") \
            from exc
    again = tinytc.print(back)
    if again != text:
        raise Violation("tinytc: program changed", _first_difference(text, again))
    return {"tinytc text": "ok"}


def _tinytc_key(prog) -> str:
    from ..frontends import tinytc
    return tinytc.print(prog)


_register_text_format("tinytc", _tinytc_corpus, _accept_tinytc, check=_check_tinytc,
                      key=_tinytc_key)


# ---------------------------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------------------------

@dataclass
class Failure:
    format: str
    kind: str
    detail: str
    data: object
    shrunk: object = None


@dataclass
class FuzzReport:
    inputs: Counter = field(default_factory=Counter)      # per format
    accepted: Counter = field(default_factory=Counter)    # per format
    checked: Counter = field(default_factory=Counter)     # distinct accepted IR checked
    outcomes: Counter = field(default_factory=Counter)    # (format, form, ok/refused)
    failures: list = field(default_factory=list)
    seconds: float = 0.0
    interrupted: bool = False


def run_one(fmt: InputFormat, data, seen: Optional[set] = None):
    """Accept ``data`` and check the invariant; returns None (rejected), "seen" or the outcome
    dict.  Raises :class:`Violation` (including a crash of the way in)."""
    try:
        module = fmt.accept(data)
    except DiagnosticError as exc:
        if "internal:" in str(exc):
            raise Violation(f"{fmt.name}: internal error", str(exc)[:500]) from exc
        return None
    except RecursionError as exc:
        raise Violation(f"{fmt.name}: recursion", str(exc)) from exc
    except Exception as exc:  # noqa: BLE001
        raise Violation(f"{fmt.name}: crash while reading",
                        f"{type(exc).__name__}: {exc}") from exc
    if seen is not None:
        try:
            key = hash((fmt.key or ir_key)(module))
        except Exception as exc:  # noqa: BLE001
            raise Violation("generic text: print crash", f"{type(exc).__name__}: {exc}") from exc
        if key in seen:
            return "seen"
        seen.add(key)
    return (fmt.check or check_module)(module)


def shrink(fmt: InputFormat, data, kind: str, budget_s: float = 20.0):
    """Delta debugging at each of ``fmt.shrink_levels`` in turn (lines, then tokens): drop
    chunks of pieces while the same kind of violation is still raised; returns the smallest
    input found within ``budget_s`` seconds."""
    deadline = time.monotonic() + budget_s

    def still_fails(candidate) -> bool:
        try:
            run_one(fmt, candidate)
        except Violation as v:
            return v.kind == kind
        except Exception:  # noqa: BLE001
            return False
        return False

    if not still_fails(data):
        return data
    for split, join in fmt.shrink_levels:
        units = split(data)
        units = _ddmin(units, lambda u: bool(u) and still_fails(join(u)), deadline)
        data = join(units)
    return data


def _ddmin(units: list, fails: Callable, deadline: float) -> list:
    n = 2
    while len(units) >= 2 and time.monotonic() < deadline:
        chunk = max(1, len(units) // n)
        reduced = False
        for start in range(0, len(units), chunk):
            if time.monotonic() >= deadline:
                break
            candidate = units[:start] + units[start + chunk:]
            if fails(candidate):
                units = candidate
                n = max(n - 1, 2)
                reduced = True
                break
        if not reduced:
            if chunk == 1:
                break
            n = min(len(units), n * 2)
    return units


def fuzz(formats: Optional[list] = None, *, seconds: Optional[float] = None,
         inputs: Optional[int] = None, seed: int = 0, max_failures: int = 20,
         shrink_budget_s: float = 20.0, progress: Optional[Callable] = None) -> FuzzReport:
    """Fuzz ``formats`` (names in :data:`INPUTS`; default all) in turn until ``seconds`` have
    passed, each format has had ``inputs`` inputs, or Ctrl-C; ``progress(report, elapsed)`` is
    called every 30 s and after each new kind of violation."""
    session = _Session([INPUTS[n] for n in (formats or list(INPUTS))], seed, inputs,
                       max_failures, shrink_budget_s, progress)
    start = time.monotonic()
    try:
        session.run(start + seconds if seconds is not None else None)
    except KeyboardInterrupt:
        session.report.interrupted = True  # (report what was done so far)
    session.report.seconds = time.monotonic() - start
    return session.report


class _Session:
    def __init__(self, fmts: list, seed: int, inputs: Optional[int], max_failures: int,
                 shrink_budget_s: float, progress: Optional[Callable]) -> None:
        self.fmts = fmts
        self.pools = {f.name: list(f.seeds()) for f in fmts}
        self.rng = random.Random(seed)
        self.inputs = inputs
        self.max_failures = max_failures
        self.shrink_budget_s = shrink_budget_s
        self.progress = progress
        self.report = FuzzReport()
        self.seen: dict = {f.name: set() for f in fmts}
        self.kinds: set = set()
        self.start = time.monotonic()

    def _done(self, fmt: InputFormat) -> bool:
        return self.inputs is not None and self.report.inputs[fmt.name] >= self.inputs

    def run(self, deadline: Optional[float]) -> None:
        next_progress = self.start + 30
        i = 0
        while deadline is None or time.monotonic() < deadline:
            if all(self._done(f) for f in self.fmts):
                break
            fmt = self.fmts[i % len(self.fmts)]
            i += 1
            if not self._done(fmt) and self.pools[fmt.name]:
                self.one(fmt)
            if self.progress is not None and time.monotonic() >= next_progress:
                next_progress = time.monotonic() + 30
                self.progress(self.report, time.monotonic() - self.start)

    def one(self, fmt: InputFormat) -> None:
        """Mutate one input of ``fmt`` and check it."""
        report, rng = self.report, self.rng
        pool = self.pools[fmt.name]
        data = rng.choice(pool)
        for _ in range(rng.randint(1, 2)):
            data = rng.choice(fmt.mutators)(data, rng)
        report.inputs[fmt.name] += 1
        try:
            res = run_one(fmt, data, self.seen[fmt.name])
        except Violation as v:
            report.outcomes[(fmt.name, "VIOLATION")] += 1
            if v.kind not in self.kinds and len(report.failures) < self.max_failures:
                self.kinds.add(v.kind)
                small = shrink(fmt, data, v.kind, self.shrink_budget_s)
                report.failures.append(Failure(fmt.name, v.kind, v.detail, data, small))
                if self.progress is not None:
                    self.progress(report, time.monotonic() - self.start)
            return
        if res is None:
            report.outcomes[(fmt.name, "rejected")] += 1
            return
        report.accepted[fmt.name] += 1
        if res == "seen":
            report.outcomes[(fmt.name, "accepted (IR seen before)")] += 1
            return
        report.checked[fmt.name] += 1
        for form, outcome in res.items():
            report.outcomes[(fmt.name, f"{form}: {outcome}")] += 1
        # an accepted mutant with new IR is a good seed: keep a bounded pool of them
        if len(pool) < 4000:
            pool.append(data)
