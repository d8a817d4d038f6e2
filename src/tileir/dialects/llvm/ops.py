"""``llvm.mlir.zero : T`` (a zero-initialised value of an LLVM-compatible type), ``llvm.func``
declarations and ``llvm.call``."""

from __future__ import annotations

import re

from ...ir.attributes import (ArrayAttr, DenseArrayAttr, DictionaryAttr, IntegerAttr,
                              OpaqueAttr, StringAttr, SymbolRefAttr, TypeAttr, format_symbol)
from ...ir.constraints import ANY_TYPE
from ...ir.core import Region
from ...ir.opdef import VARIADIC, Attr, OpBase, Operand, RegionDef, Result
from ...ir.traits import IsolatedFromAbove, Pure
from ...ir.types import I64, BuiltinType, FunctionType

#: builtin type names LLVM function types spell as they are (others get ``!llvm.``)
_PLAIN = re.compile(r"(i\d+|f16|bf16|f32|f64|f80|f128|vector<.*|index)\Z")


def is_llvm_func_type(t) -> bool:
    return isinstance(t, BuiltinType) and str(t).startswith("!llvm.func<")


def _llvm_name(t) -> str:
    text = str(t)
    return text[len("!llvm."):] if text.startswith("!llvm.") else text


def llvm_func_type(inputs, results, vararg: bool) -> BuiltinType:
    """``!llvm.func<R (A, B, ...)>`` (``void`` for no result), as MLIR prints it."""
    from .types import LLVMFuncType
    args = [_llvm_name(t) for t in inputs] + (["..."] if vararg else [])
    res = _llvm_name(results[0]) if results else "void"
    return LLVMFuncType(f"!llvm.func<{res} ({', '.join(args)})>")


def canonical_llvm_func_type(text: str) -> BuiltinType:
    """The ``!llvm.func<...>`` written as ``text``, spelled as MLIR prints it."""
    if not text.startswith("!"):
        text = "!llvm." + text
    inputs, results, vararg = func_signature(BuiltinType(text))
    return llvm_func_type(inputs, results, vararg)


def _split_top(text: str) -> list:
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _from_llvm_name(text: str):
    from ...text.parser import parse_type
    return parse_type(text if _PLAIN.match(text) else "!llvm." + text)


def func_signature(ftype) -> tuple:
    """(inputs, results, vararg) of an llvm.func's ``function_type`` (a builtin function type
    or an ``!llvm.func<...>``)."""
    if isinstance(ftype, FunctionType):
        return list(ftype.inputs), list(ftype.results), False
    m = re.fullmatch(r"!llvm\.func<(.*)>", str(ftype), re.S)
    if m is None:
        return [], [], False
    body, depth, cut = m.group(1), 0, -1
    for k, ch in enumerate(body):      # the parameter list: the first '(' outside '<...>'
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0:
            cut = k
            break
    if cut < 0 or not body.rstrip().endswith(")"):
        return [], [], False
    m = (body[:cut].strip(), body[cut + 1:body.rstrip().rindex(")")])
    pieces = _split_top(m[1])
    vararg = bool(pieces) and pieces[-1] == "..."
    if vararg:
        pieces = pieces[:-1]
    res = m[0]
    results = [] if res == "void" else [_from_llvm_name(res)]
    return [_from_llvm_name(p) for p in pieces], results, vararg


class ZeroOp(OpBase):
    """``%0 = llvm.mlir.zero : !llvm.ptr``."""

    __slots__ = ()
    DIALECT_NAME = "llvm"
    MNEMONIC = "mlir.zero"
    RESULTS = (Result("res"),)
    TRAITS = (Pure,)

    @staticmethod
    def parse_custom(parser, state):
        if parser.tok == "{":
            state.attrs.update(parser.parse_attr_dict_body())
        parser.expect(":")
        off = parser.offset
        state.set_types("res", "result", [parser.parse_type()], off)

    @staticmethod
    def print_custom(printer, op):
        return printer.attr_dict_text(op, set()) + f" : {op.results[0].type}"


# -- llvm.func (declarations) and llvm.call ----------------------------------------------------

_LINKAGES = ("private", "internal", "available_externally", "linkonce", "weak", "common",
             "appending", "extern_weak", "linkonce_odr", "weak_odr", "external")
#: LLVM's calling conventions as MLIR spells them (``#llvm.cconv<...>``)
_CCONVS = ("ccc", "fastcc", "coldcc", "cc_10", "cc_11", "webkit_jscc", "anyregcc",
           "preserve_mostcc", "preserve_allcc", "swiftcc", "cxx_fast_tlscc", "tailcc",
           "cfguard_checkcc", "swifttailcc", "x86_stdcallcc", "x86_fastcallcc", "arm_apcscc",
           "arm_aapcscc", "arm_aapcs_vfpcc", "msp430_intrcc", "x86_thiscallcc", "ptx_kernelcc",
           "ptx_devicecc", "spir_funccc", "spir_kernelcc", "intel_ocl_bicc", "x86_64_sysvcc",
           "win64cc", "x86_vectorcallcc", "hhvmcc", "hhvm_ccc", "x86_intrcc", "avr_intrcc",
           "avr_builtincc", "amdgpu_vscc", "amdgpu_gscc", "amdgpu_cscc", "amdgpu_kernelcc",
           "x86_regcallcc", "amdgpu_hscc", "msp430_builtincc", "amdgpu_lscc", "amdgpu_escc",
           "aarch64_vectorcallcc", "aarch64_sve_vectorcallcc", "wasm_emscripten_invokecc",
           "amdgpu_gfxcc", "m68k_intrcc")
#: ``visibility_`` (an i64 property): the custom form's keyword per value
_VISIBILITIES = {1: "hidden", 2: "protected"}
#: ``unnamed_addr`` (an i64 property): the custom form's keyword per value
_UNNAMED_ADDRS = {1: "local_unnamed_addr", 2: "unnamed_addr"}
_TAIL_CALLS = ("tail", "musttail", "notail")

_I64_0 = IntegerAttr(0, I64)
_CCC = OpaqueAttr("#llvm.cconv<ccc>")
_EXTERNAL = OpaqueAttr("#llvm.linkage<external>")


def _enum_word(attr, dialect_attr: str):
    """``word`` of an ``#llvm.<dialect_attr><word>`` attribute, or None."""
    m = re.fullmatch(r"#llvm\.%s<\s*(\w+)\s*>" % dialect_attr, str(attr.generic())) \
        if attr is not None else None
    return m.group(1) if m else None


def _int_value(attr) -> int:
    return attr.value if isinstance(attr, IntegerAttr) else 0


#: llvm.func's properties besides those its custom form spells (MLIR 22's ODS arguments)
_FUNC_OPTIONAL = (
    "sym_visibility", "arg_attrs", "res_attrs", "comdat", "convergent", "personality",
    "garbageCollector", "passthrough", "function_entry_count", "memory_effects", "dso_local",
    "arm_streaming", "arm_locally_streaming", "arm_streaming_compatible", "arm_new_za",
    "arm_in_za", "arm_out_za", "arm_inout_za", "arm_preserves_za", "section", "alignment",
    "vscale_range", "frame_pointer", "target_cpu", "tune_cpu", "reciprocal_estimates",
    "prefer_vector_width", "target_features", "no_infs_fp_math", "unsafe_fp_math",
    "no_nans_fp_math", "approx_func_fp_math", "no_signed_zeros_fp_math", "denormal_fp_math",
    "denormal_fp_math_f32", "fp_contract", "instrument_function_entry",
    "instrument_function_exit", "no_inline", "always_inline", "inline_hint", "no_unwind",
    "will_return", "optimize_none", "vec_type_hint", "work_group_size_hint",
    "reqd_work_group_size", "intel_reqd_sub_group_size", "uwtable_kind", "use_sample_profile",
    "modular_format", "nobuiltins", "allocsize", "cold", "hot", "noduplicate",
    "no_caller_saved_registers", "nocallback", "returns_twice", "minsize", "optsize",
    "save_reg_params", "zero_call_used_regs", "default_func_attrs")


class FuncOp(OpBase):
    """``llvm.func [linkage] [visibility] [unnamed_addr] [cconv] @name(T, ...) [-> T]
    [attributes {...}]``: a declaration of an external function (what programs write for
    runtime functions such as ``mgpuCreateSparseEnv`` or ``printF32``) or a definition with a
    body (``llvm.func @f(%a: i32) -> i32 { ... llvm.return %r : i32 }``), which the host
    runs (:mod:`tileir.execute.simt.ops.llvm_host`).  The properties are MLIR's:
    ``function_type`` is an ``!llvm.func<R (A, ...)>`` (:class:`~.types.LLVMFuncType`, which
    also answers ``inputs`` / ``results``), ``linkage`` an ``#llvm.linkage<...>``, ``CConv``
    an ``#llvm.cconv<...>``, ``visibility_`` and ``unnamed_addr`` integers; the generic form
    holds them all, as mlir-opt prints them."""

    __slots__ = ()
    DIALECT_NAME = "llvm"
    MNEMONIC = "func"
    #: no default dialect inside (MLIR's LLVM ops name none): ops print with ``llvm.``
    DEFAULT_DIALECT = None
    ATTRIBUTES = (Attr("CConv", "any", default=_CCC), Attr("function_type", "type"),
                  Attr("linkage", "any", default=_EXTERNAL), Attr("sym_name", "symbol"),
                  Attr("unnamed_addr", "i64", optional=True),
                  Attr("visibility_", "i64", default=_I64_0)) + \
        tuple(Attr(n, "any", optional=True) for n in _FUNC_OPTIONAL)
    REGIONS = (RegionDef("body", "any"),)
    TRAITS = (IsolatedFromAbove(),)

    @staticmethod
    def parse_custom(parser, state):
        linkage = "external"
        if parser.tok in _LINKAGES:
            linkage = parser.tok
            parser.i += 1
        visibility = unnamed = 0
        for k, word in _VISIBILITIES.items():
            if parser.tok == word:
                visibility = k
                parser.i += 1
        for k, word in _UNNAMED_ADDRS.items():
            if parser.tok == word:
                unnamed = k
                parser.i += 1
        cconv = "ccc"
        if parser.tok in _CCONVS:
            cconv = parser.tok
            parser.i += 1
        state.attrs["linkage"] = OpaqueAttr(f"#llvm.linkage<{linkage}>")
        state.attrs["CConv"] = OpaqueAttr(f"#llvm.cconv<{cconv}>")
        state.attrs["visibility_"] = IntegerAttr(visibility, I64)
        state.attrs["unnamed_addr"] = IntegerAttr(unnamed, I64)
        if not parser.tok or parser.tok[0] != "@":
            raise parser.error(f"{parser.op_prefix()}expected valid '@'-identifier for symbol "
                               "name")
        state.attrs["sym_name"] = StringAttr(parser.parse_symbol_name())
        parser.expect("(")
        inputs: list = []
        arg_attrs: list = []
        vararg = []

        def attrs_of(into: list) -> None:
            into.append(DictionaryAttr.of(parser.parse_attr_dict_body())
                        if parser.tok == "{" else DictionaryAttr(()))

        named: list = []

        def one():
            if parser.tok == "...":
                parser.i += 1
                vararg.append(True)
                if parser.tok != ")":
                    raise parser.error("expected ')' after '...'")
                return
            tok, off = parser.tok, parser.offset
            if tok and tok[0] == "%":
                parser.i += 1
                parser.expect(":")
            else:
                tok = ""
            inputs.append(parser.parse_type())
            attrs, loc = parser.parse_argument_suffix()
            arg_attrs.append(attrs)
            named.append((tok, inputs[-1], off, loc))
        if parser.tok != ")":
            parser.parse_comma_list(one, ")")
        parser.expect(")")
        results: list = []
        res_attrs: list = []
        if parser.consume("->"):
            if parser.tok == "(":
                parser.i += 1
                results.append(parser.parse_type())
                attrs_of(res_attrs)
                parser.expect(")")
            else:
                results.append(parser.parse_type())
        state.attrs["function_type"] = TypeAttr(llvm_func_type(inputs, results, bool(vararg)))
        if any(d.entries for d in arg_attrs):
            state.attrs["arg_attrs"] = ArrayAttr(tuple(arg_attrs))
        if any(d.entries for d in res_attrs):
            state.attrs["res_attrs"] = ArrayAttr(tuple(res_attrs))
        if parser.tok == "attributes":
            parser.i += 1
            state.attrs.update(parser.parse_attr_dict_body())
        region = Region()
        if parser.tok == "{":
            given = [a for a in named if a[0]]
            if given and len(given) != len(named):
                raise parser.error("expected SSA identifier", named[0][2] if not named[0][0]
                                   else next(a[2] for a in named if not a[0]))
            m = re.compile(r"(?:\s|//[^\n]*)*").match(parser.src, parser.offset + 1)
            if given and parser.src.startswith("^", m.end()):
                raise parser.error("invalid block name in region with named arguments",
                                   m.end())
            parser.parse_region_into(region, None, isolated=True,
                                     dialect=parser.default_dialect[-1],
                                     entry_args=named if given else None)
            if not region.blocks and given:
                region.add_block([a[1] for a in named])
        state.regions["body"] = region
        return state.build()

    @staticmethod
    def print_custom(printer, op):
        a = op.attributes
        inputs, results, vararg = func_signature(a["function_type"].value)
        text = ""
        linkage = _enum_word(a.get("linkage"), "linkage")
        if linkage is not None and linkage != "external":
            text += f" {linkage}"
        word = _VISIBILITIES.get(_int_value(a.get("visibility_")))
        if word:
            text += f" {word}"
        word = _UNNAMED_ADDRS.get(_int_value(a.get("unnamed_addr")))
        if word:
            text += f" {word}"
        cconv = _enum_word(a.get("CConv"), "cconv")
        if cconv is not None and cconv != "ccc":
            text += f" {cconv}"
        text += " " + format_symbol(a["sym_name"].value)
        region = op.regions[0]
        block = region.blocks[0] if region.blocks else None
        args = []
        for k, t in enumerate(inputs):
            item, loc = str(t), ""
            if block is not None and k < len(block.args):
                item = f"{printer.value_name(block.args[k])}: {item}"
                loc = printer.argument_loc_text(block.args[k])
            args.append(item + printer.argument_attrs(a.get("arg_attrs"), k) + loc)
        text += "(" + ", ".join(args + (["..."] if vararg else [])) + ")"
        if results:
            res = printer.argument_attrs(a.get("res_attrs"), 0)
            text += f" -> ({results[0]}{res})" if res else f" -> {results[0]}"
        text += printer.attr_dict_text(
            op, {"sym_name", "function_type", "linkage", "CConv", "visibility_",
                 "unnamed_addr", "arg_attrs", "res_attrs"}, with_keyword=True)
        if block is not None:
            text += " " + printer.render_region(region)
        return text

    def verify_op(self):
        ftype = self.attributes["function_type"].value
        if not isinstance(ftype, FunctionType) and not is_llvm_func_type(ftype):
            return "attribute 'function_type' failed to satisfy constraint: type attribute " \
                "of LLVM function type"
        inputs, results, _ = func_signature(ftype)
        if len(results) > 1:
            return "expected at most one result type"
        linkage = _enum_word(self.attributes.get("linkage"), "linkage")
        if linkage is None or linkage not in _LINKAGES:
            return "attribute 'linkage' failed to satisfy constraint: LLVM linkage types"
        if not self.regions[0].blocks and linkage not in ("external", "extern_weak"):
            return "external functions must have 'external' or 'extern_weak' linkage"
        if self.regions[0].blocks:
            args = self.regions[0].blocks[0].args
            if len(args) != len(inputs):
                return f"entry block must have {len(inputs)} arguments to match function " \
                    "signature"
            for k, (a, t) in enumerate(zip(args, inputs)):
                if str(a.type) != str(t):
                    return f"entry block argument #{k} type mismatch: '{a.type}' vs " \
                        f"'{t}'"
        return None


#: llvm.call's properties besides those its custom form spells (MLIR 22's ODS arguments)
_CALL_OPTIONAL = (
    "var_callee_type", "callee", "op_bundle_tags", "branch_weights", "access_groups",
    "alias_scopes", "noalias_scopes", "tbaa", "memory_effects", "convergent", "no_unwind",
    "will_return", "no_inline", "always_inline", "inline_hint", "arg_attrs", "res_attrs",
    "nobuiltins", "allocsize", "cold", "hot", "noduplicate", "returns_twice", "minsize",
    "optsize", "no_caller_saved_registers", "nocallback", "save_reg_params",
    "zero_call_used_regs", "default_func_attrs", "modular_format")


class CallOp(OpBase):
    """``llvm.call [cconv] [tail kind] @f(%a, ...) [vararg(T)] : (T, ...) -> R``: a direct
    call of a declared function.  Properties as MLIR's (``CConv``, ``TailCallKind``,
    ``fastmathFlags``, ``op_bundle_sizes``, the operand segments of the arguments and the
    operand bundles), so that the generic form is mlir-opt's."""

    __slots__ = ()
    DIALECT_NAME = "llvm"
    MNEMONIC = "call"
    OPERANDS = (Operand("callee_operands", ANY_TYPE, VARIADIC),
                Operand("op_bundle_operands", ANY_TYPE, VARIADIC))
    RESULTS = (Result("result", ANY_TYPE, VARIADIC),)
    ATTR_SIZED_OPERANDS = True
    ATTRIBUTES = (Attr("CConv", "any", default=_CCC),
                  Attr("TailCallKind", "any", default=OpaqueAttr("#llvm.tailcallkind<none>")),
                  Attr("fastmathFlags", "any", default=OpaqueAttr("#llvm.fastmath<none>")),
                  Attr("op_bundle_sizes", "array_i32", default=DenseArrayAttr("i32", ()))) + \
        tuple(Attr(n, "any", optional=True) for n in _CALL_OPTIONAL)

    @staticmethod
    def parse_custom(parser, state):
        cconv = "ccc"
        if parser.tok in _CCONVS:
            cconv = parser.tok
            parser.i += 1
        tail = "none"
        if parser.tok in _TAIL_CALLS:
            tail = parser.tok
            parser.i += 1
        state.attrs["CConv"] = OpaqueAttr(f"#llvm.cconv<{cconv}>")
        state.attrs["TailCallKind"] = OpaqueAttr(f"#llvm.tailcallkind<{tail}>")
        state.attrs["callee"] = SymbolRefAttr(parser.parse_symbol_name())
        parser.expect("(")
        operands = [] if parser.tok == ")" else \
            parser.parse_comma_list(parser._parse_use, ")")
        parser.expect(")")
        if parser.tok == "vararg":
            parser.i += 1
            parser.expect("(")
            off = parser.offset
            vtype = parser.parse_type()
            if not is_llvm_func_type(vtype) or not func_signature(vtype)[2]:
                raise parser.error("expected a variadic LLVM function type", off)
            state.attrs["var_callee_type"] = TypeAttr(vtype)
            parser.expect(")")
        state.operands["callee_operands"] = operands
        state.operands["op_bundle_operands"] = []
        state.attrs["op_bundle_sizes"] = DenseArrayAttr("i32", ())
        if parser.tok == "{":
            state.attrs.update(parser.parse_attr_dict_body())
        state.attrs.setdefault("fastmathFlags", OpaqueAttr("#llvm.fastmath<none>"))
        parser.expect(":")
        off = parser.offset
        ftype = parser.parse_type()
        if not isinstance(ftype, FunctionType):
            raise parser.error("expected a function type", off)
        state.set_types("callee_operands", "operand", list(ftype.inputs), off)
        state.set_types("result", "result", list(ftype.results), off)
        return state.build()

    @staticmethod
    def print_custom(printer, op):
        a = op.attributes
        text = ""
        cconv = _enum_word(a.get("CConv"), "cconv")
        if cconv is not None and cconv != "ccc":
            text += f" {cconv}"
        tail = _enum_word(a.get("TailCallKind"), "tailcallkind")
        if tail is not None and tail != "none":
            text += f" {tail}"
        args = ", ".join(printer.value_name(v) for v in op.operands)
        ftype = FunctionType([v.type for v in op.operands], [r.type for r in op.results])
        vtype = a.get("var_callee_type")
        vararg = f" vararg({vtype.value})" if isinstance(vtype, TypeAttr) else ""
        elided = {"callee", "var_callee_type", "CConv", "TailCallKind", "op_bundle_sizes",
                  "op_bundle_tags", "arg_attrs", "res_attrs"}
        return (f"{text} {a['callee'].generic()}({args}){vararg}"
                f"{printer.attr_dict_text(op, elided)} : {ftype}")

    def verify_op(self):
        vtype = self.attributes.get("var_callee_type")
        if vtype is None:
            return None
        if not is_llvm_func_type(vtype.value):
            return "attribute 'var_callee_type' failed to satisfy constraint: type attribute " \
                "of LLVM function type"
        inputs, results, _ = func_signature(vtype.value)
        if len(inputs) > len(self.operands):
            return f"expected var_callee_type to have at most {len(self.operands)} parameters"
        for t, v in zip(inputs, self.operands):
            if str(t) != str(v.type):
                return f"var_callee_type parameter type mismatch: '{t}' != '{v.type}'"
        res = str(results[0]) if results else "!llvm.void"
        got = str(self.results[0].type) if self.results else "!llvm.void"
        if res != got:
            return f"var_callee_type return type mismatch: '{res}' != '{got}'"
        return None

    def verify_symbol_uses(self, table):
        from ...ir.verify import symbol_lookup
        vtype = self.attributes.get("var_callee_type")
        name = str(self.attributes["callee"].generic()).lstrip("@")
        target = symbol_lookup(table, name)
        if target is None or target.name != "llvm.func":
            return None
        ftype = target.attributes.get("function_type")
        if not isinstance(ftype, TypeAttr):
            return None
        inputs, results, vararg = func_signature(ftype.value)
        if vararg and vtype is None:
            return "missing var_callee_type attribute for vararg call"
        n = len(self.operands)
        if (n < len(inputs)) if vararg else (n != len(inputs)):
            return "incorrect number of operands (%d) for callee (expecting: %d)" \
                % (n, len(inputs))
        for i, t in enumerate(inputs):
            if str(self.operands[i].type) != str(t):
                return f"operand type mismatch for operand {i}: '{self.operands[i].type}' != " \
                    f"'{t}'"
        got = str(self.results[0].type) if self.results else None
        want = str(results[0]) if results else None
        if got != want:
            if got is None:
                return "expected function call to produce a value"
            if want is None:
                return "calling function with void result must not produce values"
            return f"result type mismatch: '{got}' != '{want}'"
        return None
