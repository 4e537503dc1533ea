#!/usr/bin/env python3
"""Generate the man3 pages of the team and collective routines.

One page per family from the table below; every name shmem.h/shmemx.h
declare that matches a family's patterns gets an alias page (`.so`).
Writes man/man3/*.3 and man/coll.mk (the list).  The pages are committed.

  python3 man/gen-coll-man.py
"""
import os
import re
import subprocess

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATE = "2026-11-22"
VERSION = "0.1.0"


def declared_names():
    src = "#include <shmem.h>\n#include <shmemx.h>\n"
    out = subprocess.run(["cc", "-E", "-P", "-std=c11", "-I", os.path.join(TOP, "include"), "-x", "c", "-"],
                         input=src, capture_output=True, text=True, check=True).stdout
    return set(m.group(1) for m in re.finditer(r"\b(shmemx?_\w+)\s*\(", out))


def type_table(macro):
    src = "#include <shoal/types.h>\n#define X(T, N) @@T|N@@\n" + macro + "(X)\n"
    out = subprocess.run(["cc", "-E", "-P", "-I", os.path.join(TOP, "include"), "-x", "c", "-"],
                         input=src, capture_output=True, text=True, check=True).stdout
    return [tuple(s.strip() for s in m.split("|")) for m in re.findall(r"@@(.*?)@@", out)]


ERRORS = ("A zero count is valid with any buffers, NULL included (OpenSHMEM 1.5, annex on "
          "zero-length arguments); collect still takes part, since other PEs may contribute.  "
          "Arguments are checked: a team that is SHMEM_TEAM_INVALID makes the call return non-zero "
          "without doing anything; a PE that is not a member of the team, a root out of range, a "
          "count that overflows, overlapping dest and source, or a buffer that other PEs must "
          "access but is not symmetric stops the job with a message naming the call and the "
          "argument, for example")
ERROR_EXAMPLE = "shoal: PE 1: error: shmem_int_fcollect: argument 'dest' = 0x55ab5582f080 (512 bytes) is not symmetric: remotely accessed memory must come from shmem_malloc (or be a global/static variable on the CPU target)"
ALGO = ("Collectives are written once as device functions (collectives/*.h) over per-pair signal "
        "words that only count up, so they need no reset between calls and back-to-back "
        "collectives on the same, overlapping or disjoint teams need no barrier in between.")
DEPRECATED_14 = ("Deprecated in OpenSHMEM 1.5.  The active set (PE_start, logPE_stride, PE_size) "
                 "is mapped to an internal team, cached per triple; pSync (and pWrk) must be "
                 "symmetric but their contents are not used: Shoal keeps its own synchronization "
                 "state, so they need no initialization and may be reused at once.")

F = []
def fam(name, summary, syn, desc, args=(), ret="None.", pats=(), see=(), types=None, notes="",
        errors=True, hdr="shmem.h"):
    F.append(dict(name=name, summary=summary, syn=syn, desc=desc, args=list(args), ret=ret,
                  pats=list(pats), see=list(see), types=types, notes=notes, errors=errors, hdr=hdr))

RC = "Zero on success, non-zero otherwise (for example when team is SHMEM_TEAM_INVALID)."
TEAM_SEE = ["shmem_team_split_strided", "shmem_team_my_pe", "shmem_team_translate_pe"]
COLL_SEE = ["shmem_broadcast", "shmem_fcollect", "shmem_collect", "shmem_alltoall", "shmem_alltoalls",
            "shmem_sum_reduce", "shmem_team_sync"]

# ---- teams --------------------------------------------------------------
fam("shmem_team_my_pe", "the calling PE's number in a team",
    ["int shmem_team_my_pe(shmem_team_t team);"],
    "Returns the index of the calling PE in team, from 0 to shmem_team_n_pes(team) - 1.",
    [("team", "A team handle.")], "The PE number, or -1 if team is SHMEM_TEAM_INVALID.",
    see=["shmem_team_n_pes"] + TEAM_SEE, errors=False)
fam("shmem_team_n_pes", "the number of PEs in a team",
    ["int shmem_team_n_pes(shmem_team_t team);"],
    "Returns the number of PEs in team.", [("team", "A team handle.")],
    "The team's size, or -1 if team is SHMEM_TEAM_INVALID.", see=["shmem_team_my_pe"] + TEAM_SEE,
    errors=False)
fam("shmem_team_get_config", "the configuration a team was created with",
    ["int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config);"],
    "Copies the fields of the team's configuration selected by config_mask (SHMEM_TEAM_NUM_CONTEXTS) into *config.",
    [("team", "A team this PE belongs to."), ("config_mask", "Bitwise OR of the fields to read."),
     ("config", "Where to store them.")],
    "Zero on success; non-zero if team is SHMEM_TEAM_INVALID or config is NULL.", see=TEAM_SEE)
fam("shmem_team_translate_pe", "a PE's number in another team",
    ["int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team);"],
    "Returns the number in dest_team of the PE numbered src_pe in src_team.  Every conversion "
    "from a team PE to a world PE inside Shoal goes through one helper (shoal_team_world_pe), "
    "so a team index is never used where a world PE is needed.",
    [("src_team", "The team src_pe is numbered in."), ("src_pe", "A PE number in src_team."),
     ("dest_team", "The team to translate to.")],
    "The PE number in dest_team, or -1 if that PE is not in dest_team, src_pe is out of range or "
    "either team is SHMEM_TEAM_INVALID.", see=TEAM_SEE, errors=False)
fam("shmem_team_split_strided", "make a team of every stride-th PE of a parent team",
    ["int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,",
     "                             const shmem_team_config_t *config, long config_mask,",
     "                             shmem_team_t *new_team);"],
    "Creates a team of the size PEs start, start + stride, ..., start + (size - 1) * stride of "
    "parent_team (numbers in the parent).  Every PE of the parent must call it with the same "
    "arguments; the members get the new team in *new_team, the other PEs get "
    "SHMEM_TEAM_INVALID.  Teams may be split again (nested teams) and may have one PE.  Strided "
    "teams such as tensor-parallel groups [0,1,2,3] and data-parallel groups [0,4,8,12] of 16 "
    "PEs are made with (start 0, stride 1, size 4) and (start 0, stride 4, size 4).  Each team "
    "has its own synchronization words and scratch on the symmetric heap (a slot), agreed by "
    "all parent PEs, so collectives on different teams never share a flag.",
    [("parent_team", "The team to split."), ("start", "First PE, in parent_team numbering."),
     ("stride", "Distance between members (at least 1; ignored when size is 1)."),
     ("size", "Number of members, 1 to the parent's size."),
     ("config", "Optional configuration (may be NULL)."), ("config_mask", "Which fields of config are set (SHMEM_TEAM_NUM_CONTEXTS)."),
     ("new_team", "Receives the new team or SHMEM_TEAM_INVALID.")],
    "Zero on success (also on PEs that are not members).  Non-zero, with a warning that names "
    "the bad argument and *new_team set to SHMEM_TEAM_INVALID on every PE, when start, stride or "
    "size do not describe PEs of the parent, or when no team slot is free: at most "
    "SHOAL_MAX_TEAMS teams (world, shared and node included) exist at once; destroy teams or "
    "raise it.",
    see=["shmem_team_split_2d", "shmem_team_destroy", "shmem_team_translate_pe", "shoal-info"],
    notes="Environment: SHOAL_MAX_TEAMS (default 64) teams at once; SHOAL_TEAM_SCRATCH "
          "(default 256K) symmetric scratch bytes per team.")
fam("shmem_team_split_2d", "split a team into the rows and columns of a 2-D grid",
    ["int shmem_team_split_2d(shmem_team_t parent_team, int xrange,",
     "                        const shmem_team_config_t *xaxis_config, long xaxis_mask,",
     "                        shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,",
     "                        long yaxis_mask, shmem_team_t *yaxis_team);"],
    "Arranges the parent's PEs in rows of xrange PEs.  Every PE gets the team of its row in "
    "*xaxis_team and the team of its column in *yaxis_team.  The last row may be shorter.",
    [("parent_team", "The team to split."), ("xrange", "PEs per row (at least 1; larger values are clipped to the parent's size)."),
     ("xaxis_config, xaxis_mask", "Configuration of the row teams."),
     ("yaxis_config, yaxis_mask", "Configuration of the column teams."),
     ("xaxis_team, yaxis_team", "Receive the row and column teams.")],
    "Zero on success, non-zero otherwise (bad xrange, no free team slot).", see=["shmem_team_split_strided"] + TEAM_SEE)
fam("shmem_team_destroy", "destroy a team",
    ["void shmem_team_destroy(shmem_team_t team);"],
    "Collective over the team's members.  Frees the team's slot for later splits (its "
    "synchronization words are cleared once no member can touch them).  SHMEM_TEAM_INVALID is "
    "ignored; the predefined teams cannot be destroyed (an error).  Contexts created on the team "
    "must be destroyed first.",
    [("team", "The team to destroy.")], see=TEAM_SEE)
fam("shmem_team_create_ctx", "create a communication context on a team",
    ["int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx);"],
    "Like shmem_ctx_create, and the context remembers its team (shmem_ctx_get_team).",
    [("team", "A team this PE belongs to."), ("options", "SHMEM_CTX_* options."), ("ctx", "Receives the context.")],
    "Zero on success; non-zero, with *ctx set to SHMEM_CTX_INVALID, otherwise.",
    see=["shmem_ctx_get_team", "shmem_ctx_create"])
fam("shmem_ctx_get_team", "the team a context was created on",
    ["int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team);"],
    "Stores in *team the team ctx was created on: SHMEM_TEAM_WORLD for SHMEM_CTX_DEFAULT and "
    "for contexts from shmem_ctx_create.",
    [("ctx", "A context."), ("team", "Receives the team.")],
    "Zero on success; non-zero (and *team = SHMEM_TEAM_INVALID) if ctx is SHMEM_CTX_INVALID.",
    see=["shmem_team_create_ctx"], errors=False)

# ---- synchronization ----------------------------------------------------
fam("shmem_barrier_all", "complete outstanding operations and synchronize all PEs",
    ["void shmem_barrier_all(void);"],
    "Completes every put, AMO and store this PE issued (as shmem_quiet) and waits until every "
    "PE has called it.  When every PE is mapped here it is a counter barrier (one arrival per "
    "PE); otherwise a dissemination barrier.  Counters only grow: nothing is reset.",
    see=["shmem_sync_all", "shmem_team_sync", "shmem_quiet"], errors=False)
fam("shmem_sync_all", "synchronize all PEs without completing operations",
    ["void shmem_sync_all(void);"],
    "Waits until every PE has called it, without waiting for outstanding puts to complete.",
    see=["shmem_barrier_all", "shmem_team_sync"], errors=False)
fam("shmem_team_sync", "synchronize the PEs of a team",
    ["int shmem_team_sync(shmem_team_t team);"],
    "Waits until every member of team has called it.", [("team", "The team.")], RC,
    see=["shmem_sync_all", "shmem_barrier_all"])
fam("shmem_sync", "synchronize a team, or (deprecated) an active set",
    ["int shmem_sync(shmem_team_t team);   /* C11 generic (C++: overload) of shmem_team_sync */",
     "void shmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync);   /* deprecated */"],
    "Waits until every member of the team (or of the active set PE_start + i * 2^logPE_stride, "
    "i < PE_size) has called it, without waiting for outstanding puts to complete.  The two "
    "OpenSHMEM 1.5 forms share the name: in C, <shmem.h> makes shmem_sync a macro that picks "
    "shmem_team_sync for one argument and the library routine shmem_sync for four.",
    [("team", "The team."), ("PE_start", "First PE of the active set."),
     ("logPE_stride", "log2 of the distance between members."), ("PE_size", "Number of members."),
     ("pSync", "Symmetric array of SHMEM_BARRIER_SYNC_SIZE longs (checked, not used).")],
    "The team form: zero on success, non-zero if team is SHMEM_TEAM_INVALID.  The active-set form "
    "returns nothing.", see=["shmem_team_sync", "shmem_sync_all", "shmem_barrier"])
fam("shmem_barrier", "deprecated: barrier over an active set",
    ["void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync);"],
    "Completes this PE's outstanding operations and waits until every PE of the active set "
    "(PE_start + i * 2^logPE_stride, i < PE_size) has called it.  Only members call it.",
    [("PE_start", "First PE of the active set."), ("logPE_stride", "log2 of the distance between members."),
     ("PE_size", "Number of members."), ("pSync", "Symmetric array of SHMEM_BARRIER_SYNC_SIZE longs (checked, not used).")],
    see=["shmem_barrier_all", "shmem_team_sync", "shmem_team_split_strided"], notes=DEPRECATED_14)

# ---- data collectives ---------------------------------------------------
AS_ARGS = [("PE_start, logPE_stride, PE_size", "The deprecated active set (members only call)."),
           ("pSync", "Symmetric long array (checked, not used).")]
fam("shmem_broadcast", "copy a root PE's data to every PE of a team",
    ["int shmem_broadcast(shmem_team_t team, TYPE *dest, ...);   /* C11 generic: TYPE from dest */",
     "int shmem_TYPENAME_broadcast(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nelems, int PE_root);",
     "int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems, int PE_root);",
     "void shmem_broadcast32(void *dest, const void *source, size_t nelems, int PE_root,",
     "                       int PE_start, int logPE_stride, int PE_size, long *pSync);",
     "void shmem_broadcast64(...);   /* same arguments, 64-bit elements */"],
    "Copies nelems elements of source on PE_root to dest on every PE of the team (the root "
    "included; the deprecated 32/64 forms leave the root's dest alone).  dest may be source "
    "itself (in place, every form); a partial overlap is an error.  Messages that fit a "
    "pushbox slot are pushed by the root into every member's pushbox (the root waits only for "
    "the credits of its previous push); larger ones are pulled by the members from the root's "
    "source in parallel, the root returning when all have copied.  source must be symmetric.",
    [("team", "The team."), ("dest", "Where the data lands on each PE."),
     ("source", "Symmetric source, read on the root."), ("nelems", "Elements (bytes for broadcastmem)."),
     ("PE_root", "The root's number in the team (in the active set for the deprecated forms).")] + AS_ARGS,
    RC + "  The deprecated forms return nothing.", pats=[r"shmem_{T}_broadcast", r"shmem_broadcast(mem|32|64)"],
    see=COLL_SEE, types="SHOAL_RMA_TYPES", notes=DEPRECATED_14)
fam("shmem_fcollect", "concatenate equal-size blocks from every PE of a team",
    ["int shmem_fcollect(shmem_team_t team, TYPE *dest, ...);   /* C11 generic: TYPE from dest */",
     "int shmem_TYPENAME_fcollect(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nelems);",
     "int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);",
     "void shmem_fcollect32(void *dest, const void *source, size_t nelems, int PE_start,",
     "                      int logPE_stride, int PE_size, long *pSync);",
     "void shmem_fcollect64(...);   /* same arguments, 64-bit elements */"],
    "All-gather: dest on every PE gets the nelems elements of each member's source, in team "
    "order.  Each PE pushes its block to the members in the staggered order (me + i) % n, after "
    "the member has entered the call.  On a team that spans nodes, where some node holds several "
    "members (consecutive team PEs per node), it is hierarchical: the members store their blocks "
    "into the node's first member, these leaders exchange their nodes' ranges (one message per "
    "node pair) and each puts the whole result back into its node; SHOAL_COLL_HIER=0 keeps the "
    "flat form.  Remotely written: dest (symmetric, nelems * team size "
    "elements).",
    [("team", "The team."), ("dest", "Symmetric array of nelems * n elements."),
     ("source", "This PE's block."), ("nelems", "Elements per PE (bytes for fcollectmem).")] + AS_ARGS,
    RC, pats=[r"shmem_{T}_fcollect", r"shmem_fcollect(mem|32|64)"], see=COLL_SEE, types="SHOAL_RMA_TYPES",
    notes=DEPRECATED_14)
fam("shmem_collect", "concatenate blocks of different sizes from every PE of a team",
    ["int shmem_collect(shmem_team_t team, TYPE *dest, ...);   /* C11 generic: TYPE from dest */",
     "int shmem_TYPENAME_collect(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nelems);",
     "int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);",
     "void shmem_collect32(void *dest, const void *source, size_t nelems, int PE_start,",
     "                     int logPE_stride, int PE_size, long *pSync);",
     "void shmem_collect64(...);   /* same arguments, 64-bit elements */"],
    "Like fcollect, but nelems may differ between PEs (and be 0): the blocks are concatenated in "
    "team order.  PEs first exchange their sizes, then push their block at its offset.  "
    "Remotely written: dest (symmetric, big enough for the total).",
    [("team", "The team."), ("dest", "Symmetric array for the concatenation."),
     ("source", "This PE's block."), ("nelems", "This PE's element count.")] + AS_ARGS,
    RC, pats=[r"shmem_{T}_collect", r"shmem_collect(mem|32|64)"], see=COLL_SEE, types="SHOAL_RMA_TYPES",
    notes=DEPRECATED_14)
fam("shmem_alltoall", "exchange a block with every PE of a team",
    ["int shmem_alltoall(shmem_team_t team, TYPE *dest, ...);   /* C11 generic: TYPE from dest */",
     "int shmem_TYPENAME_alltoall(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nelems);",
     "int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems);",
     "void shmem_alltoall32(void *dest, const void *source, size_t nelems, int PE_start,",
     "                      int logPE_stride, int PE_size, long *pSync);",
     "void shmem_alltoall64(...);   /* same arguments, 64-bit elements */"],
    "Block j (nelems elements) of source on PE i lands in block i of dest on PE j.  Pushed in "
    "the staggered order (me + i) % n.  Remotely written: dest (symmetric).",
    [("team", "The team."), ("dest", "Symmetric array of nelems * n elements."),
     ("source", "Array of nelems * n elements."), ("nelems", "Elements per block.")] + AS_ARGS,
    RC, pats=[r"shmem_{T}_alltoall", r"shmem_alltoall(mem|32|64)"], see=COLL_SEE, types="SHOAL_RMA_TYPES",
    notes=DEPRECATED_14)
fam("shmem_alltoalls", "strided exchange of a block with every PE of a team",
    ["int shmem_alltoalls(shmem_team_t team, TYPE *dest, ...);   /* C11 generic: TYPE from dest */",
     "int shmem_TYPENAME_alltoalls(shmem_team_t team, TYPE *dest, const TYPE *source, ptrdiff_t dst,",
     "                             ptrdiff_t sst, size_t nelems);",
     "int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,",
     "                       ptrdiff_t sst, size_t nelems);",
     "void shmem_alltoalls32(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,",
     "                       size_t nelems, int PE_start, int logPE_stride, int PE_size, long *pSync);",
     "void shmem_alltoalls64(...);   /* same arguments, 64-bit elements */"],
    "Like alltoall with strides: element k of the block for PE j is source[(j * nelems + k) * sst] "
    "and lands in dest[(i * nelems + k) * dst] on PE j.  Remotely written: dest (symmetric).",
    [("team", "The team."), ("dest", "Symmetric destination."), ("source", "Source."),
     ("dst, sst", "Strides in elements (at least 1)."), ("nelems", "Elements per block.")] + AS_ARGS,
    RC, pats=[r"shmem_{T}_alltoalls", r"shmem_alltoalls(mem|32|64)"], see=COLL_SEE, types="SHOAL_RMA_TYPES",
    notes=DEPRECATED_14)

# ---- reductions ---------------------------------------------------------
OPS = [("and", "bitwise AND", "SHOAL_REDUCE_BITWISE_TYPES"), ("or", "bitwise OR", "SHOAL_REDUCE_BITWISE_TYPES"),
       ("xor", "bitwise exclusive OR", "SHOAL_REDUCE_BITWISE_TYPES"), ("min", "minimum", "SHOAL_REDUCE_MINMAX_TYPES"),
       ("max", "maximum", "SHOAL_REDUCE_MINMAX_TYPES"), ("sum", "sum", "SHOAL_REDUCE_ARITH_TYPES"),
       ("prod", "product", "SHOAL_REDUCE_ARITH_TYPES")]
for op, what, types in OPS:
    f16 = op in ("min", "max", "sum", "prod")
    syn = [f"int shmem_{op}_reduce(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nreduce);   /* C11 generic */",
           f"int shmem_TYPENAME_{op}_reduce(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nreduce);",
           f"void shmem_TYPENAME_{op}_to_all(TYPE *dest, const TYPE *source, int nreduce, int PE_start,",
           "                     int logPE_stride, int PE_size, TYPE *pWrk, long *pSync);   /* deprecated */"]
    if f16:
        syn += ["", "#include <shmemx.h>",
                f"int shmemx_half_{op}_reduce(shmem_team_t team, shmemx_half_t *dest, const shmemx_half_t *source, size_t nreduce);",
                f"int shmemx_bfloat16_{op}_reduce(shmem_team_t team, shmemx_bfloat16_t *dest, const shmemx_bfloat16_t *source, size_t nreduce);"]
    desc = (f"All-reduce with the {what}: dest[i] on every member is the {what} over the team of "
            "source[i], for i < nreduce.  dest and source may be the same array (in place) but "
            "must not partly overlap.  Every member gets the same bits (each element is combined "
            "in one fixed order).  Integer sums and products wrap around.  The algorithm is "
            "chosen by message size and team size: one-shot push for vectors that fit a "
            "pushbox slot (each PE pushes its vector into every peer's pushbox, a slot of "
            "the team's scratch, and reduces locally: one round of latency), one-shot pull "
            "for somewhat longer ones (every PE reads every peer's source), two-shot "
            "(reduce-scatter then all-gather; medium and large messages on small teams), or "
            "ring (chunked reduce-scatter and all-gather with one signal per round; large "
            "teams).  On a team that spans nodes, where some node holds several members "
            "(each node's members being consecutive team PEs, at most 64 nodes), it is "
            "hierarchical up to a size threshold (collectives/reduce_select.h, "
            "SHOAL_HIER_MAX_BYTES: no limit today, as it measured faster at every size): "
            "each node's members push their vector, in "
            "chunks of a pushbox ring, to the node's first member over shared memory, only these "
            "leaders exchange across nodes (one message per node pair and chunk), and each "
            "leader pushes the result back to its node (the GPU's collectives on such teams "
            "choose the same).  SHOAL_COLL_HIER=0 keeps the flat algorithms on such teams.  "
            "SHOAL_ALLREDUCE=oneshot|twoshot|ring|push|hier forces one (oneshot is the "
            "pull form; push sends longer vectors in slot-sized rounds; hier applies only where "
            "the team's layout allows it).  Depending on the algorithm "
            "other PEs read source or write dest, so both must be symmetric (always checked).")
    if f16:
        desc += ("  The shmemx_half and shmemx_bfloat16 forms reduce 16-bit floats: shmemx_half_t "
                 "is _Float16 (declared where the compiler has it, SHMEMX_HAVE_HALF); "
                 "shmemx_bfloat16_t holds the 16 bits of a bfloat16, computed in float and "
                 "rounded to nearest even.")
    desc += ("  On the GPU heap (a GPU build) the GPU's kernels reduce every type but long double"
             + ("; complex products there take buffers aligned to the element's size (8 bytes for "
                "complexf, 16 for complexd; C aligns them to their parts): a call on others stops "
                "with an error naming the argument" if op == "prod" else "") + ".")
    desc += ("  The TYPE_" + op + "_to_all forms take a deprecated active set and run the same "
             "code (TYPE: short, int, long, longlong" + (", float, double, longdouble" if op in ("min", "max", "sum", "prod") else "")
             + (", complexd, complexf" if op in ("sum", "prod") else "") + ").")
    pats = [rf"shmem_{{T}}_{op}_reduce", rf"shmem_\w+_{op}_to_all"]
    if f16: pats.append(rf"shmemx_(half|bfloat16)_{op}_reduce")
    fam(f"shmem_{op}_reduce", f"{what} all-reduce over a team", syn, desc,
        [("team", "The team."), ("dest", "Result, nreduce elements."), ("source", "This PE's nreduce elements."),
         ("nreduce", "Number of elements."), ("pWrk, pSync", "Deprecated forms: symmetric work and sync arrays (checked, not used).")],
        RC + "  The deprecated forms return nothing.", pats=pats,
        see=[f"shmem_{o}_reduce" for o, _, _ in OPS if o != op] + ["shmemx_reduce_scatter"], types=types,
        notes=DEPRECATED_14)

fam("shmemx_reduce_scatter", "reduce, and give each PE of a team one block of the result",
    ["#include <shmemx.h>",
     "int shmemx_TYPENAME_OP_reduce_scatter(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nreduce);",
     "int shmemx_half_OP_reduce_scatter(...);       /* OP: min, max, sum, prod */",
     "int shmemx_bfloat16_OP_reduce_scatter(...);   /* OP: min, max, sum, prod */"],
    "source holds n * nreduce elements (n: the team's size).  On team PE i, dest gets the "
    "reduction with OP over the team of block i of source (elements i * nreduce to (i + 1) * "
    "nreduce - 1).  OP and TYPE as for shmem_TYPENAME_OP_reduce (and, or, xor on the bitwise "
    "types; min, max on the min/max types; sum, prod on the arithmetic types).  Each PE reads "
    "its block from every member.  On a team that spans nodes, where some node holds several "
    "members (consecutive team PEs per node, at most 64 nodes), it is hierarchical: each "
    "node's first member reduces its node's sources over shared memory, these leaders send "
    "each other leader only the blocks of that node's members (one message per node pair and "
    "chunk of a pushbox ring), and each leader hands its members their blocks through their "
    "pushboxes; SHOAL_COLL_HIER=0 keeps the flat form (the GPU's collectives on such teams "
    "choose the same).  Either way other PEs read source, so it must be symmetric; dest is "
    "only written by its own PE and must not overlap source.  On the GPU heap (a GPU build) it "
    "runs the kernels' reduce-scatter (shmemx_barrier_all_block(3)): small blocks of 4- and "
    "8-byte types are pushed, each member sending block i of its source to team PE i.",
    [("team", "The team."), ("dest", "nreduce elements."), ("source", "Symmetric, n * nreduce elements."),
     ("nreduce", "Elements per block.")],
    RC, pats=[r"shmemx_\w+_reduce_scatter"], see=[f"shmem_{o}_reduce" for o, _, _ in OPS], hdr="shmemx.h")

# ---- OpenSHMEM 1.6 additions ----------------------------------------------
fam("shmem_sum_inscan", "inclusive and exclusive prefix sums over a team (OpenSHMEM 1.6)",
    ["int shmem_sum_inscan(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nelems);   /* C11 */",
     "int shmem_sum_exscan(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nelems);   /* C11 */",
     "int shmem_TYPENAME_sum_inscan(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nelems);",
     "int shmem_TYPENAME_sum_exscan(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nelems);"],
    "nelems separate prefix sums over the members of team, in team order.  On team PE i, "
    "inscan gives dest[j] = source[j] of team PEs 0 to i added up; exscan adds team PEs 0 to "
    "i - 1, and gives 0 on team PE 0.  Every member passes the same symmetric dest and source; "
    "they are the same array (in place) or do not overlap.  No synchronization is needed "
    "before the call: the scan waits until every member has entered before reading sources, "
    "and no member returns before every read of its source is done.  Sums are computed in "
    "team order on each PE, so equal prefixes give equal bits; integer sums wrap.  Written "
    "once as device functions (collectives/scan.h).  On the symmetric GPU heap (GPU builds) "
    "the host call stages the sum in host memory; inside kernels, "
    ".BR shmemx_sum_inscan_block (3) "
    "scans at block scope.",
    [("team", "The team."), ("dest", "Symmetric, nelems elements: the result."),
     ("source", "Symmetric, nelems elements: this PE's contribution."),
     ("nelems", "Number of elements (separate scans).")],
    RC, pats=[r"shmem_{T}_sum_inscan", r"shmem_{T}_sum_exscan", r"shmem_sum_exscan"],
    see=["shmem_sum_reduce"] + TEAM_SEE, types="SHOAL_REDUCE_ARITH_TYPES")
GENERIC_NAMES = {"shmem_sum_exscan"}   # C11 macros: not in the preprocessed headers
fam("shmem_team_ptr", "local address of a symmetric object on a team member (OpenSHMEM 1.6)",
    ["void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe);"],
    "Returns an address through which the calling PE can load and store dest on team PE pe "
    "of team, as "
    ".BR shmem_ptr (3) "
    "does for world PEs: on the CPU target, the peer's mapped heap (PEs of the same node); "
    "NULL when the peer is only reachable through the remote transport.  On GPU heap "
    "addresses it returns the peer's device address (for kernels and copies); in GPU "
    "translation units it is also a device function that kernels call.",
    [("team", "A team handle."), ("dest", "Symmetric address on the calling PE."),
     ("pe", "PE number in team.")],
    "The address, or NULL when team is SHMEM_TEAM_INVALID, pe is not in [0, team size), or "
    "the PE is not reachable by load/store.",
    see=["shmem_team_translate_pe"] + TEAM_SEE, errors=False)


def esc(s):
    return s.replace("\\", "\\\\").replace("-", "\\-") if False else s.replace("\\", "\\e")


def render(f, aliases):
    L = [".\\\" Generated by man/gen-coll-man.py; edit there.",
         f'.TH {f["name"].upper()} 3 "{DATE}" "Shoal {VERSION}" "OpenSHMEM Library Routines"',
         ".SH NAME", f'{f["name"]} \\- {f["summary"]}', ".SH SYNOPSIS", ".nf", f'.B #include <{f["hdr"]}>', ".PP"]
    L += [esc(l) for l in f["syn"]] + [".fi", ".SH DESCRIPTION", esc(f["desc"])]
    if f["args"]:
        L.append(".SH ARGUMENTS")
        for a, d in f["args"]:
            L += [".TP", f".I {a}", esc(d)]
    L += [".SH RETURN VALUES", esc(f["ret"])]
    if f["types"]:
        L += [".SH TYPES", "TYPE and TYPENAME:", ".PP", ".nf", ".ta 24n"]
        L += [f"{t}\t{n}" for t, n in type_table(f["types"])]
        L.append(".fi")
    L.append(".SH NOTES")
    if f["notes"]:
        L += [esc(f["notes"]), ".PP"]
    if f["name"] != "shmem_team_my_pe":
        L += [esc(ALGO), ".PP"]
    if f["errors"]:
        L += [esc(ERRORS), ".PP", ".RS", ".nf", ERROR_EXAMPLE, ".fi", ".RE", ".PP"]
    if aliases:
        L += [".SH ALSO DOCUMENTED HERE", ".ad l", ", ".join(sorted(aliases)) + ".", ".ad"]
    see = [s for s in f["see"] if s != f["name"]]
    if see:
        L += [".SH SEE ALSO", ",\n".join(f".BR {s} ({1 if s == 'shoal-info' else 3})" for s in see)]
    return "\n".join(L) + "\n"


def main():
    names = declared_names() | GENERIC_NAMES
    mandir = os.path.join(TOP, "man", "man3")
    pages = []
    taken = set()
    for f in F:
        pats = []
        for p in f["pats"]:
            pats.append(re.compile("^" + p.replace("{T}", r"\w+") + "$"))
        aliases = sorted(n for n in names if n != f["name"] and n not in taken and any(p.match(n) for p in pats))
        taken.update(aliases)
        with open(os.path.join(mandir, f["name"] + ".3"), "w") as out:
            out.write(render(f, aliases))
        pages.append(f["name"])
        for a in aliases:
            with open(os.path.join(mandir, a + ".3"), "w") as out:
                out.write(f'.\\" Generated by man/gen-coll-man.py\n.so man3/{f["name"]}.3\n')
            pages.append(a)
    with open(os.path.join(TOP, "man", "coll.mk"), "w") as out:
        out.write("# Generated by man/gen-coll-man.py: team and collective man3 pages and aliases.\n")
        out.write("coll_man3_pages = \\\n" + " \\\n".join(f"\tman/man3/{p}.3" for p in pages) + "\n")
        out.write("dist_man3_MANS += $(coll_man3_pages)\nEXTRA_DIST += man/gen-coll-man.py\n")
    print(f"{len(F)} pages, {len(pages) - len(F)} aliases")


main()
