#!/usr/bin/env python3
"""Generate Shoal's man pages (man/man3, man/man1 stay hand-written).

One page per routine family, written from the FAMILIES table below; every
name shmem.h/shmemx.h declare that belongs to a family gets an alias page
(`.so man3/<family>.3`).  The typed names are read from the headers through
the C preprocessor, so the aliases always match what the library exports,
and the TYPE tables printed in the pages come from include/shoal/types.h.

  man/gen-man.py            rewrite man/man3 and man/pages.mk
  man/gen-man.py --missing  list declared names no page documents

The generated pages are committed: building Shoal needs no Python.
"""
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATE = "2026-11-22"
VERSION = "0.1.0"


# ---- what the headers declare ------------------------------------------
def declared_names():
    cc = os.environ.get("CC", "cc")
    src = "#include <shmem.h>\n#include <shmemx.h>\n"
    out = subprocess.run([cc, "-E", "-P", "-std=c11", "-I", os.path.join(TOP, "include"), "-x", "c", "-"],
                         input=src, capture_output=True, text=True, check=True).stdout
    names = set()
    for m in re.finditer(r"\b((?:shmemx?_|_my_pe|_num_pes|start_pes|shmalloc|shfree|shrealloc|shmemalign)\w*)\s*\(", out):
        names.add(m.group(1))
    return names


def type_table(macro):
    """[(C type, TYPENAME)] of a SHOAL_*_TYPES macro in types.h, expanded by cpp."""
    cc = os.environ.get("CC", "cc")
    src = "#include <shoal/types.h>\n#define X(T, N) @@T|N@@\n" + macro + "(X)\n"
    out = subprocess.run([cc, "-E", "-P", "-I", os.path.join(TOP, "include"), "-x", "c", "-"],
                         input=src, capture_output=True, text=True, check=True).stdout
    return [tuple(s.strip() for s in m.split("|")) for m in re.findall(r"@@(.*?)@@", out)]


TABLES = {
    "RMA": ("Standard RMA types (Table 5)", "SHOAL_RMA_TYPES"),
    "AMO_STD": ("Standard AMO types (Table 6)", "SHOAL_AMO_STD_TYPES"),
    "AMO_EXT": ("Extended AMO types (standard AMO types, float and double)", "SHOAL_AMO_EXT_TYPES"),
    "AMO_BIT": ("Bitwise AMO types", "SHOAL_AMO_BIT_TYPES"),
    "SYNC": ("Point-to-point synchronization types", "SHOAL_SYNC_TYPES"),
}
def tnames(key):
    return [n for _, n in type_table(TABLES[key][1])]


# ---- shared text --------------------------------------------------------
ERRORS = ["Shoal checks the arguments it can check cheaply: a call before "
          ".BR shmem_init (3), a PE number out of range, a remote address that is not "
          "symmetric (not in the symmetric heap and not a global or static variable), "
          "or a count that does not fit in memory.  A bad argument stops the whole job "
          "with a message that names the call and the argument, such as",
          None,   # the example line
          "The checks on the RMA, AMO and wait paths are compiled out by "
          "configure --disable-arg-checks."]
ERROR_EXAMPLE = [".RS", ".nf", "shoal: PE 0: error: shmem_int_put: argument 'pe' = 7 is out of range: valid PEs are 0..3", ".fi", ".RE", ".PP"]
TRANSPORT = ("PEs on the same node map each other's symmetric memory, and the operation is "
             "a plain load/store (or memcpy) on the peer's memory.  A PE that is not mapped "
             "is reached through the remote transport (libfabric); without one, the call "
             "stops the job with an error rather than doing nothing.")
CTX = ("The ctx forms issue the operation on the given communication context (see "
       ".BR shmem_ctx_create (3)); the forms without ctx use SHMEM_CTX_DEFAULT.")
GENERIC = "C11 type-generic macros (<shmem.h> with a C11 compiler) select the typed routine from the pointer type."

# ---- families -----------------------------------------------------------
# Each family: page name, one-line summary, synopsis, description,
# arguments, return value, notes; 'aliases' is a list of regular
# expressions over the declared names ({T} = the family's type names).
F = []
def fam(**kw):
    kw.setdefault("ret", "None.")
    kw.setdefault("notes", "")
    kw.setdefault("types", None)
    kw.setdefault("generic", [])
    kw.setdefault("aliases", [])
    kw.setdefault("see", [])
    kw.setdefault("deprecated", "")
    F.append(kw)

ZERO_LEN = ("A zero nelems is valid with any dest and source, NULL included (OpenSHMEM 1.5, annex on "
            "zero-length arguments): the call checks only pe and returns.")

def rma_fam(op, summary, c11, typed, desc, args, ret="None.", notes="", extra=(), see=(), sized=True, mem=True):
    if op not in ("p", "g"): notes = (notes + "  " + ZERO_LEN).strip()
    pats = [rf"shmem_(ctx_)?{{T}}_{op}"]
    base = op.replace("_nbi", "")
    suffix = "_nbi" if op.endswith("_nbi") else ""
    if sized: pats.append(rf"shmem_(ctx_)?{base}(8|16|32|64|128){suffix}")
    if mem: pats.append(rf"shmem_(ctx_)?{base}mem{suffix}")
    fam(name=f"shmem_{op}", summary=summary, c11=c11, typed=typed, desc=desc, args=args, ret=ret,
        notes=notes, types="RMA", aliases=pats + list(extra), see=list(see))

PUTARGS = [("ctx", "The context to issue the operation on."),
           ("dest", "Symmetric address of the destination on PE pe."),
           ("source", "Local address of the data to copy (any memory)."),
           ("nelems", "Number of elements (bytes for the mem form)."),
           ("pe", "PE number of the remote PE, in SHMEM_TEAM_WORLD.")]
GETARGS = [("ctx", "The context to issue the operation on."),
           ("dest", "Local address to copy into (any memory)."),
           ("source", "Symmetric address of the data on PE pe."),
           ("nelems", "Number of elements (bytes for the mem form)."),
           ("pe", "PE number of the remote PE, in SHMEM_TEAM_WORLD.")]

rma_fam("put", "copy contiguous data to a remote PE",
        ["void shmem_put(TYPE *dest, const TYPE *source, size_t nelems, int pe);",
         "void shmem_put(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, size_t nelems, int pe);"],
        ["void shmem_TYPENAME_put(TYPE *dest, const TYPE *source, size_t nelems, int pe);",
         "void shmem_ctx_TYPENAME_put(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, size_t nelems, int pe);",
         "void shmem_putSIZE(void *dest, const void *source, size_t nelems, int pe);",
         "void shmem_ctx_putSIZE(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);",
         "void shmem_putmem(void *dest, const void *source, size_t nelems, int pe);",
         "void shmem_ctx_putmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);"],
        "Copies nelems elements from the local source to dest on PE pe.  The routine returns "
        "when source may be reused; the data is delivered to pe by the next "
        ".BR shmem_quiet (3) "
        "(or barrier), and puts to one PE are ordered by "
        ".BR shmem_fence (3).  "
        "SIZE is 8, 16, 32, 64 or 128 (bits per element); putmem counts bytes.",
        PUTARGS, see=["shmem_p", "shmem_iput", "shmem_put_nbi", "shmem_get", "shmem_quiet"])
rma_fam("get", "copy contiguous data from a remote PE",
        ["void shmem_get(TYPE *dest, const TYPE *source, size_t nelems, int pe);",
         "void shmem_get(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, size_t nelems, int pe);"],
        ["void shmem_TYPENAME_get(TYPE *dest, const TYPE *source, size_t nelems, int pe);",
         "void shmem_ctx_TYPENAME_get(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, size_t nelems, int pe);",
         "void shmem_getSIZE(void *dest, const void *source, size_t nelems, int pe);",
         "void shmem_ctx_getSIZE(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);",
         "void shmem_getmem(void *dest, const void *source, size_t nelems, int pe);",
         "void shmem_ctx_getmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);"],
        "Copies nelems elements from source on PE pe into the local dest and returns when the "
        "data is in dest.  SIZE is 8, 16, 32, 64 or 128; getmem counts bytes.",
        GETARGS, see=["shmem_g", "shmem_iget", "shmem_get_nbi", "shmem_put"])
rma_fam("put_nbi", "start a contiguous copy to a remote PE (non-blocking)",
        ["void shmem_put_nbi(TYPE *dest, const TYPE *source, size_t nelems, int pe);",
         "void shmem_put_nbi(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, size_t nelems, int pe);"],
        ["void shmem_TYPENAME_put_nbi(TYPE *dest, const TYPE *source, size_t nelems, int pe);",
         "void shmem_ctx_TYPENAME_put_nbi(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, size_t nelems, int pe);",
         "void shmem_putSIZE_nbi(void *dest, const void *source, size_t nelems, int pe);",
         "void shmem_ctx_putSIZE_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);",
         "void shmem_putmem_nbi(void *dest, const void *source, size_t nelems, int pe);",
         "void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);"],
        "Starts copying nelems elements from source to dest on PE pe.  Neither source nor the "
        "remote dest may be used until "
        ".BR shmem_quiet (3) "
        "on the same context returns.  On mapped peers Shoal completes the copy before "
        "returning; the rule above is what portable programs rely on.",
        PUTARGS, see=["shmem_put", "shmem_quiet"])
rma_fam("get_nbi", "start a contiguous copy from a remote PE (non-blocking)",
        ["void shmem_get_nbi(TYPE *dest, const TYPE *source, size_t nelems, int pe);",
         "void shmem_get_nbi(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, size_t nelems, int pe);"],
        ["void shmem_TYPENAME_get_nbi(TYPE *dest, const TYPE *source, size_t nelems, int pe);",
         "void shmem_ctx_TYPENAME_get_nbi(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, size_t nelems, int pe);",
         "void shmem_getSIZE_nbi(void *dest, const void *source, size_t nelems, int pe);",
         "void shmem_ctx_getSIZE_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);",
         "void shmem_getmem_nbi(void *dest, const void *source, size_t nelems, int pe);",
         "void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);"],
        "Starts copying nelems elements from source on PE pe into dest.  dest holds the data "
        "once "
        ".BR shmem_quiet (3) "
        "on the same context returns.",
        GETARGS, see=["shmem_get", "shmem_quiet"])
rma_fam("p", "store one element on a remote PE",
        ["void shmem_p(TYPE *dest, TYPE value, int pe);",
         "void shmem_p(shmem_ctx_t ctx, TYPE *dest, TYPE value, int pe);"],
        ["void shmem_TYPENAME_p(TYPE *dest, TYPE value, int pe);",
         "void shmem_ctx_TYPENAME_p(shmem_ctx_t ctx, TYPE *dest, TYPE value, int pe);"],
        "Stores value at dest on PE pe; the single-element form of "
        ".BR shmem_put (3), "
        "with the same completion and ordering rules.",
        [("ctx", "The context to issue the operation on."),
         ("dest", "Symmetric address of the destination on PE pe."),
         ("value", "The value to store."), ("pe", "PE number of the remote PE.")],
        sized=False, mem=False, see=["shmem_put", "shmem_g"])
rma_fam("g", "load one element from a remote PE",
        ["TYPE shmem_g(const TYPE *source, int pe);",
         "TYPE shmem_g(shmem_ctx_t ctx, const TYPE *source, int pe);"],
        ["TYPE shmem_TYPENAME_g(const TYPE *source, int pe);",
         "TYPE shmem_ctx_TYPENAME_g(shmem_ctx_t ctx, const TYPE *source, int pe);"],
        "Returns the element at source on PE pe; the single-element form of "
        ".BR shmem_get (3).",
        [("ctx", "The context to issue the operation on."),
         ("source", "Symmetric address of the element on PE pe."), ("pe", "PE number of the remote PE.")],
        ret="The value at source on PE pe.", sized=False, mem=False, see=["shmem_get", "shmem_p"])
rma_fam("iput", "copy strided data to a remote PE",
        ["void shmem_iput(TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);",
         "void shmem_iput(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);"],
        ["void shmem_TYPENAME_iput(TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);",
         "void shmem_ctx_TYPENAME_iput(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);",
         "void shmem_iputSIZE(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);",
         "void shmem_ctx_iputSIZE(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);"],
        "Copies nelems elements: element i of the result, dest[i*dst] on PE pe, is source[i*sst].  "
        "Strides are in elements and must be positive.  Completion as for "
        ".BR shmem_put (3).",
        [("ctx", "The context to issue the operation on."),
         ("dest", "Symmetric address of the destination array on PE pe."),
         ("source", "Local source array."), ("dst", "Stride between destination elements."),
         ("sst", "Stride between source elements."), ("nelems", "Number of elements."),
         ("pe", "PE number of the remote PE.")], mem=False, see=["shmem_put", "shmem_iget"])
rma_fam("iget", "copy strided data from a remote PE",
        ["void shmem_iget(TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);",
         "void shmem_iget(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);"],
        ["void shmem_TYPENAME_iget(TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);",
         "void shmem_ctx_TYPENAME_iget(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);",
         "void shmem_igetSIZE(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);",
         "void shmem_ctx_igetSIZE(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);"],
        "Copies nelems elements: dest[i*dst] receives source[i*sst] of PE pe.  Strides are in "
        "elements and must be positive.  Returns when dest holds the data.",
        [("ctx", "The context to issue the operation on."),
         ("dest", "Local destination array."),
         ("source", "Symmetric address of the source array on PE pe."), ("dst", "Stride between destination elements."),
         ("sst", "Stride between source elements."), ("nelems", "Number of elements."),
         ("pe", "PE number of the remote PE.")], mem=False, see=["shmem_get", "shmem_iput"])

SIGARGS = [("ctx", "The context to issue the operation on."),
           ("dest", "Symmetric address of the destination on PE pe."),
           ("source", "Local address of the data."),
           ("nelems", "Number of elements (bytes for putmem_signal)."),
           ("sig_addr", "Symmetric address of the uint64_t signal word on PE pe."),
           ("signal", "Value used to update the signal word."),
           ("sig_op", "SHMEM_SIGNAL_SET (store signal) or SHMEM_SIGNAL_ADD (atomically add it)."),
           ("pe", "PE number of the remote PE.")]
for nbi in ("", "_nbi"):
    fam(name=f"shmem_put_signal{nbi}",
        summary="put data, then update a signal word on the same PE" + (" (non-blocking)" if nbi else ""),
        c11=[f"void shmem_put_signal{nbi}(TYPE *dest, const TYPE *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);",
             f"void shmem_put_signal{nbi}(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);"],
        typed=[f"void shmem_TYPENAME_put_signal{nbi}(TYPE *dest, const TYPE *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);",
               f"void shmem_ctx_TYPENAME_put_signal{nbi}(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);",
               f"void shmem_put_signalSIZE{nbi}(void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);",
               f"void shmem_ctx_put_signalSIZE{nbi}(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);",
               f"void shmem_putmem_signal{nbi}(void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);",
               f"void shmem_ctx_putmem_signal{nbi}(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);"],
        desc="Copies nelems elements from source to dest on PE pe, then updates the signal word "
             "sig_addr on the same PE with signal (set or atomic add).  A PE that sees the new "
             "signal value (with "
             ".BR shmem_signal_wait_until (3) "
             "or "
             ".BR shmem_signal_fetch (3)) "
             "also sees the data: the signal update is a release that follows the data.  "
             + "With nelems 0, dest and source may be NULL: only the signal is updated.  "
             + ("The call returns when source may be reused." if not nbi else
                "source may be reused and the operation is complete after "
                ".BR shmem_quiet (3) "
                "on the same context."),
        args=SIGARGS, types="RMA",
        aliases=[rf"shmem_(ctx_)?{{T}}_put_signal{nbi}", rf"shmem_(ctx_)?put_signal(8|16|32|64|128){nbi}",
                 rf"shmem_(ctx_)?putmem_signal{nbi}"],
        see=["shmem_signal_wait_until", "shmem_signal_fetch", "shmem_put"])
fam(name="shmem_signal_fetch", summary="read a local signal word atomically",
    c11=None, typed=["uint64_t shmem_signal_fetch(const uint64_t *sig_addr);"],
    desc="Returns the value of the local signal word sig_addr, read atomically with respect to "
         "signal updates from "
         ".BR shmem_put_signal (3).",
    args=[("sig_addr", "Symmetric address of a local signal word.")],
    ret="The signal value.", see=["shmem_put_signal", "shmem_signal_wait_until"])
fam(name="shmem_signal_wait_until", summary="wait until a local signal word satisfies a comparison",
    c11=None, typed=["uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value);"],
    desc="Blocks until the local signal word sig_addr compares true against cmp_value with cmp "
         "(SHMEM_CMP_EQ, NE, GT, GE, LT, LE), then returns its value.  Data delivered by the "
         "put_signal that set the value is visible when the call returns.  Waiting PEs back "
         "off (and yield when PEs outnumber cores), so oversubscribed runs make progress.",
    args=[("sig_addr", "Symmetric address of a local signal word."),
          ("cmp", "Comparison operator, SHMEM_CMP_*."), ("cmp_value", "Value to compare with.")],
    ret="The signal value that satisfied the comparison.", see=["shmem_put_signal", "shmem_wait_until"])

# ---- atomics ------------------------------------------------------------
def amo_fam(op, types, summary, ret_t, params, desc, args, ret, deprecated=(), nbi=True, extra_see=()):
    tn = "{T}"
    c11 = [f"{ret_t} shmem_atomic_{op}({params});",
           f"{ret_t} shmem_atomic_{op}(shmem_ctx_t ctx, {params});"]
    typed = [f"{ret_t} shmem_TYPENAME_atomic_{op}({params});",
             f"{ret_t} shmem_ctx_TYPENAME_atomic_{op}(shmem_ctx_t ctx, {params});"]
    pats = [rf"shmem_(ctx_)?{tn}_atomic_{op}"]
    generic = [f"shmem_atomic_{op}"]
    if nbi:
        np = "TYPE *fetch, " + params.replace("const TYPE *source", "const TYPE *source")
        c11 += [f"void shmem_atomic_{op}_nbi({np});",
                f"void shmem_atomic_{op}_nbi(shmem_ctx_t ctx, {np});"]
        typed += [f"void shmem_TYPENAME_atomic_{op}_nbi({np});",
                  f"void shmem_ctx_TYPENAME_atomic_{op}_nbi(shmem_ctx_t ctx, {np});"]
        pats.append(rf"shmem_(ctx_)?{tn}_atomic_{op}_nbi")
        generic.append(f"shmem_atomic_{op}_nbi")
    dep_text = ""
    for old, ts in deprecated:
        pats.append(rf"shmem_({'|'.join(ts)})_{old}")
        dep_text += f"shmem_TYPENAME_{old} ({', '.join(ts)}) "
        generic.append(f"shmem_{old}")
    if deprecated:
        dep_text = ("The OpenSHMEM 1.4 names " + dep_text.strip().replace(") ", "), ") +
                    " remain as deprecated aliases of the blocking form, with the C11 generic "
                    + ", ".join(f"shmem_{old}" for old, _ in deprecated) + " over the same types.")
    a = [("ctx", "The context to issue the operation on.")] + args + [("pe", "PE number of the remote PE.")]
    if nbi:
        a.insert(1, ("fetch", "Local address that receives the fetched value (the _nbi forms): valid after shmem_quiet(3)."))
    fam(name=f"shmem_atomic_{op}", summary=summary, c11=c11, typed=typed,
        desc=desc + "  The operation is atomic with respect to every other atomic operation on "
                    "the same address from any PE (not with respect to puts or local stores).",
        args=a, ret=ret, types=types, aliases=pats, generic=generic, deprecated=dep_text,
        see=["shmem_atomic_fetch_add", "shmem_quiet"] + list(extra_see))

DEP3 = ("int", "long", "longlong")
amo_fam("fetch", "AMO_EXT", "atomically read a remote value", "TYPE", "const TYPE *source, int pe",
        "Returns the value at source on PE pe, read atomically.",
        [("source", "Symmetric address on PE pe.")], "The value at source.",
        deprecated=[("fetch", DEP3 + ("float", "double"))])
amo_fam("set", "AMO_EXT", "atomically write a remote value", "void", "TYPE *dest, TYPE value, int pe",
        "Stores value at dest on PE pe atomically.",
        [("dest", "Symmetric address on PE pe."), ("value", "The value to store.")], "None.",
        deprecated=[("set", DEP3 + ("float", "double"))], nbi=False)
amo_fam("swap", "AMO_EXT", "atomically exchange a remote value", "TYPE", "TYPE *dest, TYPE value, int pe",
        "Stores value at dest on PE pe and returns the previous value, atomically.",
        [("dest", "Symmetric address on PE pe."), ("value", "The new value.")], "The previous value at dest.",
        deprecated=[("swap", DEP3 + ("float", "double"))])
amo_fam("compare_swap", "AMO_STD", "atomically replace a remote value if it equals a condition", "TYPE",
        "TYPE *dest, TYPE cond, TYPE value, int pe",
        "If dest on PE pe equals cond, stores value there.  Either way returns the value dest held.",
        [("dest", "Symmetric address on PE pe."), ("cond", "The value dest must hold to be replaced."),
         ("value", "The new value.")], "The value at dest before the operation.",
        deprecated=[("cswap", DEP3)])
amo_fam("fetch_inc", "AMO_STD", "atomically increment a remote value and return the old one", "TYPE",
        "TYPE *dest, int pe", "Adds 1 to dest on PE pe and returns the previous value.",
        [("dest", "Symmetric address on PE pe.")], "The value at dest before the increment.",
        deprecated=[("finc", DEP3)])
amo_fam("inc", "AMO_STD", "atomically increment a remote value", "void", "TYPE *dest, int pe",
        "Adds 1 to dest on PE pe.", [("dest", "Symmetric address on PE pe.")], "None.",
        deprecated=[("inc", DEP3)], nbi=False)
amo_fam("fetch_add", "AMO_STD", "atomically add to a remote value and return the old one", "TYPE",
        "TYPE *dest, TYPE value, int pe", "Adds value to dest on PE pe and returns the previous value.",
        [("dest", "Symmetric address on PE pe."), ("value", "The value to add.")],
        "The value at dest before the addition.", deprecated=[("fadd", DEP3)])
amo_fam("add", "AMO_STD", "atomically add to a remote value", "void", "TYPE *dest, TYPE value, int pe",
        "Adds value to dest on PE pe.", [("dest", "Symmetric address on PE pe."), ("value", "The value to add.")],
        "None.", deprecated=[("add", DEP3)], nbi=False)
for bop in ("and", "or", "xor"):
    amo_fam(f"fetch_{bop}", "AMO_BIT", f"atomic bitwise {bop.upper()} on a remote value, returning the old one",
            "TYPE", "TYPE *dest, TYPE value, int pe",
            f"Replaces dest on PE pe by (dest {dict(_and='&', _or='|', _xor='^')['_' + bop]} value) and returns the previous value.",
            [("dest", "Symmetric address on PE pe."), ("value", "The operand.")], "The value at dest before the operation.")
    amo_fam(bop, "AMO_BIT", f"atomic bitwise {bop.upper()} on a remote value", "void", "TYPE *dest, TYPE value, int pe",
            f"Replaces dest on PE pe by (dest {dict(_and='&', _or='|', _xor='^')['_' + bop]} value).",
            [("dest", "Symmetric address on PE pe."), ("value", "The operand.")], "None.", nbi=False)
# shmem_swap(long *, long, int) is the 1.2 untyped swap.
[f for f in F if f["name"] == "shmem_atomic_swap"][0]["aliases"].append(r"shmem_swap")

# ---- ordering ----------------------------------------------------------
fam(name="shmem_fence", summary="order puts, AMOs and signals to each PE",
    c11=None, typed=["void shmem_fence(void);", "void shmem_ctx_fence(shmem_ctx_t ctx);"],
    desc="Every put, put_signal, non-fetching AMO and store issued on the context before the fence "
         "is delivered to its target PE before any such operation issued after it to the same PE.  "
         "It does not wait for completion (see "
         ".BR shmem_quiet (3)).  "
         "On mapped peers Shoal issues a full memory fence.  On SHMEM_CTX_INVALID it does nothing.",
    args=[("ctx", "The context to order; shmem_fence orders SHMEM_CTX_DEFAULT.")],
    aliases=[r"shmem_ctx_fence"], see=["shmem_quiet", "shmem_put"])
fam(name="shmem_quiet", summary="wait for completion of all outstanding remote operations",
    c11=None, typed=["void shmem_quiet(void);", "void shmem_ctx_quiet(shmem_ctx_t ctx);"],
    desc="Returns when every put, AMO, put_signal and non-blocking operation issued on the context "
         "by this PE is complete: the data is visible at its target and the buffers of the _nbi "
         "calls may be reused.  On mapped peers Shoal issues a full memory fence; the remote "
         "transport waits for its outstanding operations.  On SHMEM_CTX_INVALID it does nothing.",
    args=[("ctx", "The context to complete; shmem_quiet completes SHMEM_CTX_DEFAULT.")],
    aliases=[r"shmem_ctx_quiet"], see=["shmem_fence", "shmem_put_nbi", "shmem_barrier_all"])

# ---- point-to-point synchronization --------------------------------------
WAITDESC = ("cmp is one of SHMEM_CMP_EQ, SHMEM_CMP_NE, SHMEM_CMP_GT, SHMEM_CMP_GE, SHMEM_CMP_LT, "
            "SHMEM_CMP_LE.  The ivars are symmetric variables of this PE that other PEs update "
            "with puts or atomics; the read is an atomic acquire load, so data put before the "
            "update (with a fence) is visible afterwards.  Waiting PEs poll with backoff and "
            "yield the core when the node runs more PEs than cores.")
def sync_fam(kind, which, summary, desc, ret):
    base = f"{kind}{('_' + which) if which else ''}"
    T = "TYPE"
    if which == "":
        sig = {"wait_until": f"void shmem_{{N}}wait_until({T} *ivar, int cmp, {T} cmp_value);",
               "test": f"int shmem_{{N}}test({T} *ivar, int cmp, {T} cmp_value);"}[kind]
        sigs = [sig]
    else:
        rt = {"wait_until": {"all": "void", "any": "size_t", "some": "size_t"},
              "test": {"all": "int", "any": "size_t", "some": "size_t"}}[kind][which]
        rt_scalar = rt
        idx = "size_t *indices, " if which == "some" else ""
        sigs = [f"{rt_scalar} shmem_{{N}}{base}({T} *ivars, size_t nelems, {idx}const int *status, int cmp, {T} cmp_value);",
                f"{rt} shmem_{{N}}{base}_vector({T} *ivars, size_t nelems, {idx}const int *status, int cmp, {T} *cmp_values);"]
    c11 = [s.replace("{N}", "") for s in sigs]
    typed = [s.replace("{N}", "TYPENAME_") for s in sigs]
    pats = [rf"shmem_{{T}}_{base}"] + ([rf"shmem_{{T}}_{base}_vector"] if which else [])
    generic = [f"shmem_{base}"] + ([f"shmem_{base}_vector"] if which else [])
    dep = ""
    if base == "wait_until":
        pats += [r"shmem_{T}_wait", r"shmem_wait", r"shmem_wait_until"]
        typed += ["void shmem_TYPENAME_wait(TYPE *ivar, TYPE cmp_value);   /* deprecated */",
                  "void shmem_wait(long *ivar, long cmp_value);   /* deprecated */"]
        dep = ("shmem_TYPENAME_wait(ivar, v) and shmem_wait(ivar, v) are the deprecated 1.4 forms of "
               "wait_until(ivar, SHMEM_CMP_NE, v).  Without C11, shmem_wait_until is the long form.")
    args = [("ivar" if not which else "ivars", "Symmetric address(es) of local variables to watch.")]
    if which:
        args += [("nelems", "Number of elements in ivars (and status, cmp_values)."),
                 ("status", "NULL, or an array: elements whose status is non-zero are excluded.")]
        if which == "some":
            args.append(("indices", "Array of at least nelems entries that receives the indices of the satisfied elements."))
    args += [("cmp", "Comparison operator, SHMEM_CMP_*."), ("cmp_value", "Value to compare with.")]
    if which:
        args.append(("cmp_values", "The _vector forms: one comparison value per element."))
    fam(name=f"shmem_{base}", summary=summary, c11=c11, typed=typed, desc=desc + "  " + WAITDESC,
        args=args, ret=ret, types="SYNC", aliases=pats, generic=generic, deprecated=dep,
        see=["shmem_wait_until", "shmem_test", "shmem_signal_wait_until"])

sync_fam("wait_until", "", "wait until a local variable satisfies a comparison",
         "Blocks until ivar compares true against cmp_value.", "None.")
sync_fam("wait_until", "all", "wait until all selected variables satisfy a comparison",
         "Blocks until every element of ivars not excluded by status compares true.", "None.")
sync_fam("wait_until", "any", "wait until one of the selected variables satisfies a comparison",
         "Blocks until one element of ivars not excluded by status compares true and returns its index.  "
         "Successive calls return the satisfied elements in turn rather than the same one: a call "
         "starts after the index the last call on the same ivars returned (state per thread).",
         "The index of a satisfied element; SIZE_MAX if every element is excluded by status.")
sync_fam("wait_until", "some", "wait until some of the selected variables satisfy a comparison",
         "Blocks until at least one element of ivars not excluded by status compares true, stores the "
         "indices of all satisfied elements in indices and returns how many there are.",
         "The number of indices stored; 0 if every element is excluded by status.")
sync_fam("test", "", "test whether a local variable satisfies a comparison",
         "Returns at once whether ivar compares true against cmp_value.", "1 if the comparison holds, else 0.")
sync_fam("test", "all", "test whether all selected variables satisfy a comparison",
         "Returns at once whether every element of ivars not excluded by status compares true.",
         "1 if all selected elements satisfy the comparison (or none is selected), else 0.")
sync_fam("test", "any", "test whether one of the selected variables satisfies a comparison",
         "Returns at once the index of one selected element that compares true.  Successive calls "
         "return the satisfied elements in turn: a call starts after the index the last call on the "
         "same ivars returned (state per thread), so a loop over test_any services every satisfied "
         "element, not only the lowest.",
         "The index of a satisfied element, or SIZE_MAX if none.")
sync_fam("test", "some", "test which of the selected variables satisfy a comparison",
         "Stores the indices of the selected elements that compare true in indices, without blocking.",
         "The number of indices stored (0 if none).")

# ---- locks ---------------------------------------------------------------
fam(name="shmem_set_lock", summary="distributed mutual exclusion",
    c11=None, typed=["void shmem_set_lock(long *lock);", "int shmem_test_lock(long *lock);",
                     "void shmem_clear_lock(long *lock);"],
    desc="lock is a symmetric long, zero before first use, that all PEs use as one lock.  "
         "shmem_set_lock blocks until this PE holds the lock; shmem_test_lock takes it only if it is "
         "free; shmem_clear_lock completes this PE's outstanding puts and AMOs (as "
         ".BR shmem_quiet (3)) "
         "and releases it.  Shoal's lock is a ticket lock kept in the lock word on PE 0: waiters are "
         "served in arrival order and poll with backoff.",
    args=[("lock", "Symmetric address of a long, initialized to 0 on every PE.")],
    ret="shmem_test_lock: 0 if the lock was acquired, 1 if another PE holds it.  The others: none.",
    aliases=[r"shmem_test_lock", r"shmem_clear_lock"], see=["shmem_quiet", "shmem_atomic_compare_swap"])

# ---- contexts ------------------------------------------------------------
fam(name="shmem_ctx_create", summary="create a communication context",
    c11=None, typed=["int shmem_ctx_create(long options, shmem_ctx_t *ctx);"],
    desc="Creates a context on SHMEM_TEAM_WORLD.  Operations on a context are ordered by "
         "shmem_ctx_fence and completed by shmem_ctx_quiet independently of other contexts.  "
         "options is 0 or an OR of SHMEM_CTX_SERIALIZED, SHMEM_CTX_PRIVATE and SHMEM_CTX_NOSTORE; "
         "unknown bits are an error.  SHMEM_CTX_DEFAULT always exists.  Every RMA, AMO, fence and "
         "quiet routine has a shmem_ctx_ form taking the context as first argument.",
    args=[("options", "Context options (see above)."), ("ctx", "Receives the new context.")],
    ret="0 on success; non-zero (and *ctx = SHMEM_CTX_INVALID) if no context could be created.",
    see=["shmem_ctx_destroy", "shmem_quiet", "shmem_put"])
fam(name="shmem_ctx_destroy", summary="destroy a communication context",
    c11=None, typed=["void shmem_ctx_destroy(shmem_ctx_t ctx);"],
    desc="Completes the context's outstanding operations (as shmem_ctx_quiet) and frees it.  "
         "SHMEM_CTX_INVALID is ignored; destroying SHMEM_CTX_DEFAULT is an error.",
    args=[("ctx", "A context from shmem_ctx_create.")], see=["shmem_ctx_create"])

# ---- setup and query -----------------------------------------------------
fam(name="shmem_init", summary="start the OpenSHMEM library",
    c11=None, typed=["void shmem_init(void);", "void start_pes(int npes);   /* deprecated */"],
    desc="Joins the job through PMIx (rank, size, node), maps the symmetric heap of every PE on "
         "this node (POSIX shared memory, created 0600 and unlinked once all PEs mapped it), makes "
         "global and static variables symmetric, creates SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED and "
         "ends with a barrier.  Started without a launcher, the program runs as a single PE.  "
         "Calling it again has no effect.  start_pes(npes) is the 1.2 name; "
         "npes is ignored.",
    args=[], notes="The heap size comes from SHMEM_SYMMETRIC_SIZE; every variable is listed by "
                   ".BR shoal-info (1).",
    aliases=[r"start_pes"], see=["shmem_init_thread", "shmem_finalize", "shoal-info"])
fam(name="shmem_init_thread", summary="start the library with a thread level; query the level",
    c11=None, typed=["int shmem_init_thread(int requested, int *provided);",
                     "void shmem_query_thread(int *provided);"],
    desc="shmem_init_thread is shmem_init that also negotiates the thread level: requested is "
         "SHMEM_THREAD_SINGLE, FUNNELED, SERIALIZED or MULTIPLE and *provided receives the level "
         "granted.  shmem_query_thread returns the level in effect.",
    args=[("requested", "The thread level the program needs."), ("provided", "Receives the level provided.")],
    ret="shmem_init_thread: 0 on success, non-zero on failure.", aliases=[r"shmem_query_thread"],
    see=["shmem_init"])
fam(name="shmem_finalize", summary="leave the OpenSHMEM library",
    c11=None, typed=["void shmem_finalize(void);"],
    desc="Completes outstanding operations, synchronizes all PEs with a barrier, releases the "
         "symmetric heap and leaves the PMIx job.  A second call does nothing; shmem_init "
         "cannot be called again afterwards.  A program that returns from main without "
         "calling it (or calls exit(0)) is finalized at exit; one that exits with a non-zero "
         "status is not, so that it cannot meet, and hang, a collective the other PEs are in: "
         "the launcher sees the status and ends the job.",
    args=[], see=["shmem_init", "shmem_global_exit"])
fam(name="shmem_global_exit", summary="stop every PE of the job",
    c11=None, typed=["void shmem_global_exit(int status);"],
    desc="Asks the launcher to stop every PE and exits this one with status; the job's exit status "
         "is status.  Shared memory the job created is already unlinked, so nothing is left behind.",
    args=[("status", "Exit status of the job.")], ret="Does not return.", see=["shmem_finalize"])
fam(name="shmem_my_pe", summary="number of the calling PE",
    c11=None, typed=["int shmem_my_pe(void);", "int _my_pe(void);   /* deprecated */"],
    desc="Returns the calling PE's number in SHMEM_TEAM_WORLD, 0 to shmem_n_pes()-1.",
    args=[], ret="The PE number.", aliases=[r"_my_pe"], see=["shmem_n_pes", "shmem_team_my_pe"])
fam(name="shmem_n_pes", summary="number of PEs in the job",
    c11=None, typed=["int shmem_n_pes(void);", "int _num_pes(void);   /* deprecated */"],
    desc="Returns the number of PEs in SHMEM_TEAM_WORLD.", args=[], ret="The number of PEs.",
    aliases=[r"_num_pes"], see=["shmem_my_pe"])
fam(name="shmem_pe_accessible", summary="whether a PE can be reached",
    c11=None, typed=["int shmem_pe_accessible(int pe);"],
    desc="Returns whether PE pe is part of the job and reachable, by load/store or by the remote transport.",
    args=[("pe", "A PE number.")], ret="1 if reachable, else 0.", see=["shmem_addr_accessible", "shmem_ptr"])
fam(name="shmem_addr_accessible", summary="whether a symmetric address can be reached on a PE",
    c11=None, typed=["int shmem_addr_accessible(const void *addr, int pe);"],
    desc="Returns whether addr is a symmetric address (symmetric heap, or a global or static "
         "variable) that PE pe can be reached at.",
    args=[("addr", "A local address."), ("pe", "A PE number.")], ret="1 if accessible, else 0.",
    see=["shmem_pe_accessible", "shmem_ptr"])
fam(name="shmem_ptr", summary="local address of a symmetric object on another PE",
    c11=None, typed=["void *shmem_ptr(const void *dest, int pe);"],
    desc="Returns an address through which this PE can load and store the object dest of PE pe "
         "directly.  On Shoal every PE of the same node is mapped, so this succeeds for peers on "
         "the node and returns NULL for PEs reached only through the remote transport.",
    args=[("dest", "Symmetric address."), ("pe", "A PE number.")],
    ret="The local address of dest on pe, or NULL.", see=["shmem_addr_accessible"])
fam(name="shmem_info_get_version", summary="the OpenSHMEM version the library implements",
    c11=None, typed=["void shmem_info_get_version(int *major, int *minor);"],
    desc="Stores SHMEM_MAJOR_VERSION (1) and SHMEM_MINOR_VERSION (5).  Needs no shmem_init.",
    args=[("major", "Receives the major version."), ("minor", "Receives the minor version.")],
    see=["shmem_info_get_name"])
fam(name="shmem_info_get_name", summary="the vendor name of the library",
    c11=None, typed=["void shmem_info_get_name(char *name);"],
    desc="Copies SHMEM_VENDOR_STRING (\"Shoal\" and its version) into name, at most "
         "SHMEM_MAX_NAME_LEN bytes with the terminating null.  Needs no shmem_init.",
    args=[("name", "Buffer of at least SHMEM_MAX_NAME_LEN bytes.")], see=["shmem_info_get_version"])

# ---- memory management ---------------------------------------------------
fam(name="shmem_malloc", summary="allocate and free symmetric memory",
    c11=None, typed=["void *shmem_malloc(size_t size);", "void shmem_free(void *ptr);",
                     "void *shmem_realloc(void *ptr, size_t size);",
                     "void *shmem_align(size_t alignment, size_t size);",
                     "void *shmalloc(size_t size);   /* deprecated */", "void shfree(void *ptr);   /* deprecated */",
                     "void *shrealloc(void *ptr, size_t size);   /* deprecated */",
                     "void *shmemalign(size_t alignment, size_t size);   /* deprecated */"],
    desc="Collective over all PEs: every PE makes the same calls with the same arguments.  "
         "shmem_malloc returns a block of size bytes of the symmetric heap, aligned to 64 bytes; "
         "the same block exists on every PE.  shmem_align aligns it to alignment (a power of two).  "
         "shmem_realloc resizes a block, in place when it can, keeping its contents up to the "
         "smaller size.  shmem_free returns a block (NULL is allowed).  Each call includes a "
         "barrier, so no PE touches a peer's block before the peer has it (or after it freed it).  "
         "Free blocks are coalesced.",
    args=[("size", "Bytes to allocate; 0 returns NULL."), ("alignment", "A power of two."),
          ("ptr", "A block from shmem_malloc, shmem_calloc, shmem_align or shmem_realloc.")],
    ret="The block, or NULL when the heap has no room (on every PE alike; the heap stays usable, "
        "and realloc keeps the old block).  With SHMEM_DEBUG=1 a failure prints how much is free "
        "and the largest free block.",
    notes="The heap size is SHMEM_SYMMETRIC_SIZE (default 256M; K, M, G suffixes).  Freeing a "
          "pointer that did not come from these calls, or freeing twice, stops the job with an "
          "error naming shmem_free and the pointer.",
    aliases=[r"shmem_free", r"shmem_realloc", r"shmem_align", r"shmalloc", r"shfree", r"shrealloc", r"shmemalign"],
    see=["shmem_calloc", "shmem_malloc_with_hints", "shoal-info"])
fam(name="shmem_calloc", summary="allocate zeroed symmetric memory",
    c11=None, typed=["void *shmem_calloc(size_t count, size_t size);"],
    desc="As shmem_malloc(count * size), collective, with the block zeroed.  A product that "
         "overflows returns NULL.",
    args=[("count", "Number of elements."), ("size", "Bytes per element.")],
    ret="The zeroed block, or NULL.", see=["shmem_malloc"])
fam(name="shmem_malloc_with_hints", summary="allocate symmetric memory with usage hints",
    c11=None, typed=["void *shmem_malloc_with_hints(size_t size, long hints);"],
    desc="As shmem_malloc.  hints is 0 or an OR of SHMEM_MALLOC_ATOMICS_REMOTE and "
         "SHMEM_MALLOC_SIGNAL_REMOTE; every Shoal block already suits both, so the hints change "
         "nothing.  Unknown bits are ignored (a hint never makes a correct program fail); "
         "SHMEM_DEBUG=1 prints them.",
    args=[("size", "Bytes to allocate."), ("hints", "Usage hints (see above).")],
    ret="The block, or NULL.", see=["shmem_malloc"])

# ---- profiling interface --------------------------------------------------
fam(name="shmem_pcontrol", summary="set the level of a profiling tool",
    c11=None, typed=["void shmem_pcontrol(const int level, ...);"],
    desc="OpenSHMEM 1.5 section 10.  level 0 disables profiling, 1 enables it at the default "
         "detail, 2 flushes the tool's buffers, other values mean what the tool says.  Shoal "
         "itself records nothing: a profiling tool interposes shmem_pcontrol (see "
         ".BR pshmem (3)).",
    args=[("level", "The profiling level; further arguments are the tool's.")],
    see=["pshmem"])
fam(name="pshmem", summary="the profiling interface: pshmem_ names of every routine",
    c11=None, typed=["#include <pshmem.h>", "", "void pshmem_int_put(int *dest, const int *source, size_t nelems, int pe);",
                     "...   /* pshmem_X for every routine shmem_X of shmem.h */",
                     "int p_my_pe(void);   /* and pstart_pes, pshmalloc, ... for the deprecated names */"],
    desc="OpenSHMEM 1.5 section 10.  Every routine shmem_X is also exported as pshmem_X.  In "
         "libshoal (shared and static) pshmem_X is the strong definition and shmem_X a weak alias "
         "of it, so a tool may define shmem_X itself, do its work and call pshmem_X: linked before "
         "libshoal.so, or together with libshoal.a.  Calls the library makes internally go to "
         "pshmem_X, so the tool sees only the program's calls.  <pshmem.h> declares the pshmem_ "
         "names (C and C++); it is generated from <shmem.h>, so it lists every typed name.  The "
         "C11 generic macros have no pshmem_ form.",
    args=[], see=["shmem_pcontrol"])

# ---- deprecated cache routines and extensions ------------------------------
fam(name="shmem_udcflush", summary="deprecated cache-management routines (no-ops)",
    c11=None, typed=["void shmem_clear_cache_inv(void);", "void shmem_set_cache_inv(void);",
                     "void shmem_clear_cache_line_inv(void *dest);", "void shmem_set_cache_line_inv(void *dest);",
                     "void shmem_udcflush(void);", "void shmem_udcflush_line(void *dest);"],
    desc="OpenSHMEM 1.0 routines for machines without cache coherence.  They are deprecated and "
         "do nothing in Shoal: memory ordering comes from the fences of the RMA, AMO and "
         "synchronization routines.",
    args=[("dest", "Ignored.")],
    aliases=[r"shmem_clear_cache_inv", r"shmem_set_cache_inv", r"shmem_clear_cache_line_inv",
             r"shmem_set_cache_line_inv", r"shmem_udcflush_line"], see=["shmem_fence", "shmem_quiet"])
fam(name="shmemx_build_config", summary="Shoal build configuration and environment variables",
    c11=None, typed=["#include <shmemx.h>", "",
                     "const char *shmemx_build_config(void);",
                     "int shmemx_info_env(int i, const char **name, const char **default_value, const char **help);"],
    desc="shmemx_build_config returns a string of key=value words describing the build, for "
         "example \"version=0.1.0 pmix=yes ofi=yes arg-checks=yes\".  shmemx_info_env describes "
         "environment variable number i (counting from 0) that the library reads: its name, its "
         "default and a one-line help.  Neither needs shmem_init; "
         ".BR shoal-info (1) "
         "prints both.",
    args=[("i", "Index of the variable."), ("name, default_value, help", "Receive the description; any may be NULL.")],
    ret="shmemx_info_env: 0, or -1 when i is past the last variable.",
    aliases=[r"shmemx_info_env"], see=["shoal-info"])
fam(name="shmemx_init_with_uniqueid", summary="start Shoal from a unique id (NVSHMEM style)",
    c11=None, typed=["#include <shmemx.h>", "",
                     "typedef struct shmemx_uniqueid { char internal[128]; } shmemx_uniqueid_t;",
                     "int shmemx_get_uniqueid(shmemx_uniqueid_t *uid);",
                     "int shmemx_init_with_uniqueid(shmemx_uniqueid_t uid, int rank, int nranks);"],
    desc="For programs that already have a communicator (MPI, torch.distributed, a shared file) "
         "and were not started by a PMIx launcher.  One rank calls shmemx_get_uniqueid; the "
         "program sends the 128 bytes of uid to every rank; every rank then calls "
         "shmemx_init_with_uniqueid with the same uid, its rank and the number of ranks, in place "
         "of .BR shmem_init (3). "
         "PE numbers are the ranks given.  The id carries a TCP rendezvous address: the host "
         "name's address (or SHOAL_BOOTSTRAP_ADDR) and a free port that shmemx_get_uniqueid "
         "opened, so rank 0 must run on the host that made the id (best: in the process that "
         "made it).  The rendezvous waits at most SHOAL_BOOTSTRAP_TIMEOUT seconds, then fails "
         "with a message.  Jobs started by torchrun need neither call: shmem_init reads RANK, "
         "WORLD_SIZE, MASTER_ADDR and MASTER_PORT (SHOAL_BOOTSTRAP=env).",
    args=[("uid", "The id from shmemx_get_uniqueid, the same bytes on every rank."),
          ("rank", "This process's PE number, 0 <= rank < nranks."),
          ("nranks", "The number of PEs in the job.")],
    ret="0, or -1 with a message on stderr (a NULL or foreign uid, a bad rank, the library "
        "already initialized).",
    aliases=[r"shmemx_get_uniqueid"], see=["shmem_init", "shmem_finalize"])

# ---- OpenSHMEM 1.6 additions ----------------------------------------------
IBARGS = [("ctx", "The context to issue the operation on."),
          ("dest", "Destination array: symmetric on PE pe (ibput), local (ibget)."),
          ("source", "Source array: local (ibput), symmetric on PE pe (ibget)."),
          ("dst", "Distance in elements between the starts of consecutive blocks in dest; at least bsize when nblocks > 1."),
          ("sst", "Distance in elements between the starts of consecutive blocks in source; at least 1."),
          ("bsize", "Number of contiguous elements per block."), ("nblocks", "Number of blocks."),
          ("pe", "PE number of the remote PE, in SHMEM_TEAM_WORLD.")]
for op, way in (("ibput", "to"), ("ibget", "from")):
    rma_fam(op, f"copy blocks of strided data {way} a remote PE (OpenSHMEM 1.6)",
            [f"void shmem_{op}(TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);",
             f"void shmem_{op}(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);"],
            [f"void shmem_TYPENAME_{op}(TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);",
             f"void shmem_ctx_TYPENAME_{op}(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);",
             f"void shmem_{op}SIZE(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);",
             f"void shmem_ctx_{op}SIZE(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);"],
            "Copies nblocks blocks of bsize contiguous elements: block b, the elements source[b*sst] "
            "to source[b*sst + bsize - 1], goes to dest[b*dst] onward"
            + (" on PE pe.  The routine returns when source may be reused; completion as for "
               ".BR shmem_put (3)." if op == "ibput" else
               ", reading source on PE pe.  The routine returns when dest holds the data.")
            + "  With bsize 1 this is "
            + (".BR shmem_iput (3)." if op == "ibput" else ".BR shmem_iget (3).")
            + "  Strides count elements between the starts of blocks; blocks in dest may not "
              "overlap (dst at least bsize), and a stride below 1 is an error.  A zero bsize or "
              "nblocks moves nothing (NULL buffers are fine).  GPU heap addresses work from the "
              "host and, in GPU translation units, inside kernels.",
            IBARGS, mem=False, see=["shmem_iput", "shmem_iget", "shmem_put", "shmem_get"])
for op, verb in (("add", "atomically adds signal to"), ("set", "atomically stores signal in")):
    fam(name=f"shmem_signal_{op}",
        summary=f"{'add to' if op == 'add' else 'set'} a remote signal word (OpenSHMEM 1.6)",
        c11=[f"void shmem_signal_{op}(uint64_t *sig_addr, uint64_t signal, int pe);",
             f"void shmem_signal_{op}(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);"],
        typed=[f"void shmem_signal_{op}(uint64_t *sig_addr, uint64_t signal, int pe);",
               f"void shmem_ctx_signal_{op}(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);"],
        desc=f"shmem_signal_{op} {verb} the signal word sig_addr on PE pe, with the same "
             "atomicity as the signal update of "
             ".BR shmem_put_signal (3) "
             "(so it combines with put_signal, "
             ".BR shmem_signal_wait_until (3) "
             "and "
             ".BR shmem_signal_fetch (3)).  "
             "It is complete after "
             ".BR shmem_quiet (3) "
             "on the same context.  The C11 name takes an optional leading ctx.  Works on GPU "
             "heap addresses from the host, and inside kernels in GPU translation units.",
        args=[("ctx", "The context to issue the operation on (the forms without ctx use SHMEM_CTX_DEFAULT)."),
              ("sig_addr", "Symmetric address of the uint64_t signal word on PE pe."),
              ("signal", "The value to " + ("add." if op == "add" else "store.")),
              ("pe", "PE number of the remote PE.")],
        aliases=[rf"shmem_ctx_signal_{op}"],
        see=["shmem_signal_add" if op == "set" else "shmem_signal_set", "shmem_put_signal",
             "shmem_signal_wait_until", "shmem_signal_fetch"])
fam(name="shmem_pe_quiet", summary="complete the operations issued to some PEs (OpenSHMEM 1.6)",
    c11=None,
    typed=["void shmem_pe_quiet(const int *target_pes, size_t npes);",
           "void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes);"],
    desc="Returns when every put, AMO, put_signal and non-blocking get the calling PE issued on "
         "the context (SHMEM_CTX_DEFAULT without ctx) to the PEs target_pes[0..npes-1] is "
         "complete and visible, as "
         ".BR shmem_quiet (3) "
         "does for all PEs.  Shoal completes every outstanding operation of the context, which "
         "gives the listed PEs that guarantee.  npes 0, or SHMEM_CTX_INVALID, does nothing; a PE "
         "number out of range is an error.  Also a device function in GPU translation units.",
    args=[("ctx", "The context."), ("target_pes", "Array of npes PE numbers."),
          ("npes", "Number of PEs in target_pes.")],
    aliases=[r"shmem_ctx_pe_quiet"], see=["shmem_quiet", "shmem_fence"])
fam(name="shmem_ctx_session_start", summary="start or stop a communication session on a context (OpenSHMEM 1.6)",
    c11=None,
    typed=["void shmem_ctx_session_start(shmem_ctx_t ctx, long options, const shmem_ctx_session_config_t *config, long config_mask);",
           "void shmem_ctx_session_stop(shmem_ctx_t ctx);", "",
           "typedef struct { size_t total_ops; } shmem_ctx_session_config_t;",
           "SHMEM_CTX_SESSION_BATCH        /* option: the context issues a batch */",
           "SHMEM_CTX_SESSION_TOTAL_OPS    /* config_mask: use config->total_ops */"],
    desc="A session tells the library how a context is about to be used (SHMEM_CTX_SESSION_BATCH: "
         "many small puts and AMOs; total_ops: about how many RMA calls) until "
         "shmem_ctx_session_stop.  Sessions are hints: they change no result, completion or "
         "ordering.  Shoal already issues small operations on mapped peers as stores and on "
         "libfabric without per-call completion, so it checks and accepts sessions and applies "
         "nothing.  A second start on the same context combines its options.  With "
         "SHMEM_CTX_INVALID both calls do nothing.  Unknown option or mask bits are ignored "
         "(SHMEM_DEBUG=1 prints them).",
    args=[("ctx", "The context."), ("options", "SHMEM_CTX_SESSION_BATCH, or 0."),
          ("config", "Session parameters; may be NULL when config_mask is 0."),
          ("config_mask", "SHMEM_CTX_SESSION_TOTAL_OPS to use config->total_ops, or 0 for the defaults.")],
    aliases=[r"shmem_ctx_session_stop"], see=["shmem_ctx_create", "shmem_quiet"])

# ---- rendering ----------------------------------------------------------
def esc(s):
    s = s.replace("\\", "\\e")
    return "\n".join(("\\&" + l if l[:1] in ".'" else l) for l in s.split("\n"))

def text(s):
    """One paragraph: '.BR name (3)' and '.B word' become inline bold."""
    s = re.sub(r"\s*\n\s*", " ", s).strip().replace("\\", "\\e")
    s = re.sub(r"\.BR (\S+) \((\d)\)", r"\\fB\1\\fR(\2)", s)
    s = re.sub(r"\.B (\S+)", r"\\fB\1\\fR", s)
    s = s.replace("  ", " ")
    return ("\\&" + s) if s[:1] in ".'" else s

def render(f, names, typenames):
    L = [f'.TH {f["name"].upper()} 3 "{DATE}" "Shoal {VERSION}" "OpenSHMEM Library Routines"',
         ".SH NAME", f'{f["name"]} \\- {f["summary"]}', ".SH SYNOPSIS", ".nf", ".B #include <shmem.h>", ".PP"]
    if f["c11"]:
        L += ["C11:", ".PP"] + [esc(l) for l in f["c11"]] + [".PP", "C (every TYPE and TYPENAME in the table below):" if f["types"] else "C:", ".PP"]
    L += [esc(l) for l in f["typed"]] + [".fi"]
    L += [".SH DESCRIPTION", text(f["desc"])]
    if any("ctx" in l for l in f["typed"]) and f["types"]:
        L += [".PP", text(CTX)]
    if f["c11"] and f["types"]:
        L += [".PP", GENERIC]
    if f["args"]:
        L.append(".SH ARGUMENTS")
        for a, d in f["args"]:
            L += [".TP", f".I {a}", text(d)]
    L += [".SH RETURN VALUES", text(f["ret"])]
    if f["types"]:
        title, _ = TABLES[f["types"]]
        L += [".SH TYPES", title + ":", ".PP", ".nf", ".ta 24n"]
        for t, n in type_table(TABLES[f["types"]][1]):
            L.append(f"{t}\t{n}")
        L.append(".fi")
        if any("SIZE" in l for l in f["typed"]):
            L += [".PP", "SIZE: 8, 16, 32, 64, 128."]
    notes = f["notes"]
    L.append(".SH NOTES")
    if notes:
        L += [text(notes), ".PP"]
    if f["types"] in ("RMA", "AMO_STD", "AMO_EXT", "AMO_BIT") or f["name"].startswith("shmem_put_signal"):
        L += [text(TRANSPORT), ".PP"]
    for para in ERRORS:
        L += ERROR_EXAMPLE if para is None else [text(para), ".PP"]
    if f["deprecated"]:
        L += [".SH DEPRECATED NAMES", text(f["deprecated"])]
    if names:
        L += [".SH ALSO DOCUMENTED HERE", ".ad l", ", ".join(sorted(names)) + ".", ".ad"]
    see = [s for s in f["see"] if s != f["name"]]
    if see:
        L += [".SH SEE ALSO", ",\n".join(f".BR {s} ({1 if s == 'shoal-info' else 3})" for s in see)]
    return "\n".join(L) + "\n"


def main():
    declared = declared_names()
    owner = {}
    for f in F:
        tset = {"RMA": tnames("RMA"), "AMO_STD": tnames("AMO_STD"), "AMO_EXT": tnames("AMO_EXT"),
                "AMO_BIT": tnames("AMO_BIT"), "SYNC": tnames("SYNC"), None: []}[f["types"]]
        got = set()
        for p in f["aliases"]:
            rx = re.compile("^" + p.replace("{T}", "(" + "|".join(tset) + ")") + "$")
            got |= {n for n in declared if rx.match(n)}
        got.discard(f["name"])
        f["names"] = got
        for n in got | ({f["name"]} if f["name"] in declared else set()):
            if n in owner and owner[n] != f["name"]:
                sys.exit(f"{n}: claimed by {owner[n]} and {f['name']}")
            owner[n] = f["name"]
    missing = sorted(n for n in declared if n not in owner)
    if "--missing" in sys.argv:
        print("\n".join(missing))
        return
    outdir = os.path.join(TOP, "man", "man3")
    os.makedirs(outdir, exist_ok=True)
    for fn in os.listdir(outdir):   # regenerate what this script owns
        p = os.path.join(outdir, fn)
        with open(p) as fh:
            head = fh.read(200)
        if "Generated by man/gen-man.py" in head:
            os.remove(p)
    pages, aliases = [], []
    for f in F:
        page = f"man3/{f['name']}.3"
        with open(os.path.join(TOP, "man", page), "w") as fh:
            fh.write('.\\" Generated by man/gen-man.py from its FAMILIES table; edit there.\n')
            fh.write(render(f, f["names"] | set(f["generic"]) - {f["name"]}, None))
        pages.append(page)
        for n in sorted(f["names"] | set(f["generic"]) - {f["name"]}):
            ap = f"man3/{n}.3"
            with open(os.path.join(TOP, "man", ap), "w") as fh:
                fh.write('.\\" Generated by man/gen-man.py\n.so ' + page + "\n")
            aliases.append(ap)
    with open(os.path.join(TOP, "man", "pages.mk"), "w") as fh:
        fh.write("# Generated by man/gen-man.py: the foundation's man3 pages and their aliases.\n")
        fh.write("shoal_man3_pages = \\\n")
        allp = ["man/" + p for p in pages + aliases]
        fh.write(" \\\n".join("\t" + p for p in allp) + "\n")
    print(f"{len(pages)} family pages, {len(aliases)} aliases; {len(missing)} declared names documented elsewhere "
          f"(man/gen-man.py --missing lists them)")


if __name__ == "__main__":
    main()
