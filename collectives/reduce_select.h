/* Reductions: which algorithm runs, for every entry point -- the CPU's
 * blocking calls, the GPU's block and grid calls in kernels, and the
 * host's _on_stream launches -- from one function per collective
 * (shoal_reduce_select) and the thresholds in one table.
 *
 * One-shot moves (n - 1) whole vectors per PE: it wins for small messages.
 * Its push form (peers' vectors land in my pushbox; LL on a GPU: flags in
 * the data) has one round of latency.  The pull form reads every peer's
 * source between two meetings.  Two-shot moves 2 (n - 1) / n of the vector
 * per PE in two rounds: medium and large messages.  Ring moves the same
 * volume in 2 (n - 1) neighbour rounds: large CPU teams, where one-shot and
 * two-shot put n - 1 peers on every link at once.  SHOAL_ALLREDUCE=ring
 * runs it at every scope (the CPU, a GPU block or grid, _on_stream's
 * kernels) on load/store teams with a symmetric dest; auto takes it
 * only on the channels (at 4 PEs on 2 cores it loses to auto at every
 * size, 1.7-3x: bench/RESULTS.md, session 8).
 *
 * LL (collectives/ll.h, GPU block and grid only: the CPU's pushbox is
 * shared with its other pushes) is the push form with the flags in the
 * data, for 4- and 8-byte types where the data per pair fits half a
 * pushbox slot (shoal_reduce_ll_fits): the all-reduce's whole vector, the
 * reduce-scatter's one block per member (each member pushes block q of its
 * own source to q, which reduces it in team order; the source need not be
 * symmetric).  One one-way latency instead of two meetings.  A block
 * (and _on_stream's one-block LL kernel, below the grid's threshold) takes
 * it where the data fits one slot; a grid whose blocks meet (a user's
 * kernel) spreads the words over its blocks and takes it up to
 * shoal_ll_grid_max, a call taking several slots of the ring (ll_span).
 *
 * Teams whose members are all reachable by load/store (at most
 * SHOAL_SCOPE_MAX_PEERS) run the algorithms at a scope (reduce_oneshot.h,
 * reduce_twoshot.h, reduce_scatter.h: the CPU at one lane, a GPU block, a
 * GPU grid); the others, the one-thread algorithms on the signal channels
 * (shoal_coll_allreduce: the CPU's network teams, a GPU's teams behind the
 * host proxy, <shoal/gpu_remote_coll.h>).
 *
 * Hierarchical (collectives/hier.h), among the channel algorithms, on teams
 * that span nodes with some node holding several members (the team's node
 * layout, teams/team.c: shoal_reduce_ask's hier): reduce inside each node
 * over load/store, only the node leaders talk across nodes (one message
 * per node pair instead of one per PE pair), and the result goes back
 * inside the node.  Auto takes it where the layout allows it and the vector
 * is at most SHOAL_HIER_MAX_BYTES (below); the reduce-scatter likewise
 * (hier.h; each member's block at most SHOAL_HIER_SCATTER_MAX_BYTES). */
#ifndef SHOAL_COLL_REDUCE_SELECT_H
#define SHOAL_COLL_REDUCE_SELECT_H

#include "hier.h"
#include "ll.h"
#include "reduce_push.h"
#include "reduce_ring.h"
#include "reduce_twoshot.h"

/* ---- the thresholds ------------------------------------------------------ */
/* CPU: push one-shot up to this many bytes per PE (and what fits one
 * pushbox slot); beyond, two-shot wins at 4 PEs (bench/coll). */
#define SHOAL_ONESHOT_MAX_BYTES 16384
/* CPU: ring from this many members. */
#define SHOAL_RING_MIN_PES 9
/* GPU grid, out of place: the pull up to this many bytes (the same two
 * meetings as two-shot, no remote stores); beyond, two-shot moves
 * (n - 1) / n of the vector instead of n - 1. */
#ifndef SHOAL_GRID_ONESHOT_MAX_BYTES   /* a benchmark's build may set it */
#define SHOAL_GRID_ONESHOT_MAX_BYTES (64u << 10)
#endif
/* GPU _on_stream: a kernel over the whole GPU from this many bytes (per
 * member's source); below, one block is faster.  The all-reduce gains
 * from the grid earlier (a 128 KB vector: 5-6% faster at 2 and 4 PEs; 64
 * KB: 13% slower), the reduce-scatter not (a 128 KB source at 4 PEs: 8%
 * slower); the data movers (fcollect, alltoall, broadcast: bytes per
 * member's block) from 128 KB.  Each block of a reduction's such kernel
 * takes at least SHOAL_GPU_BLOCK_BYTES (fewer meetings for medium
 * messages; H100, PEs under MPS: bench/RESULTS.md, sessions 8 and 14; 8
 * KB lost 1.4-3.4% at 3-4 PEs on 4 H200, session 29), each block of the
 * movers' grid push SHOAL_GPU_MOVE_BLOCK_BYTES: at 16 KB a member's block
 * of 64 KB (fcollect and alltoall of 256 KB at 4 PEs) ran on 4 blocks,
 * slower than 512 KB on 8 -- one H200 under MPS, 8 KB a block: 12.53 ->
 * 11.86 us and 12.99 -> 12.03, and of 512 KB at 2 PEs 6.89 -> 6.50 and
 * 7.33 -> 6.86 (bench/RESULTS.md session 38); 4 H200, 2 MB at 3 PEs 17.7
 * -> 15.3 (session 29). */
#define SHOAL_GPU_SCATTER_GRID_MIN (256u << 10)
#define SHOAL_GPU_ALLREDUCE_GRID_MIN (128u << 10)
#define SHOAL_GPU_MOVE_GRID_MIN (128u << 10)
#define SHOAL_GPU_BLOCK_BYTES (16u << 10)
#define SHOAL_GPU_MOVE_BLOCK_BYTES (8u << 10)
/* GPU LL (collectives/ll.h) carries up to half a pushbox slot per pair
 * (at 2 PEs 16 KB); fcollect, broadcast and the reduce-scatter take it
 * only up to this many bytes per pair (alltoall: below): beyond, each
 * thread's chain of polls grows and the push (the pull) is faster -- 16 KB
 * per pair at 2 PEs took 9.1-11.5 us against 8.2-9.8 for twice the bytes
 * without LL.
 * The all-reduce, whose other forms meet twice, takes the whole slot.
 * H100, 2 PEs under MPS (bench/RESULTS.md, session 14). */
#ifndef SHOAL_GPU_LL_MOVE_MAX   /* a benchmark's build may set it */
#define SHOAL_GPU_LL_MOVE_MAX (8u << 10)
#endif
/* alltoall's LL stops at half that: its threads load a word of every
 * member's block (fcollect's one word of mine), and at 8 KB per pair the
 * push was faster -- 2 PEs: 8.07 against 7.31 us on an H200, 8.61 against
 * 8.50 for twice the bytes on an H100; at 4 PEs as fast or faster
 * (bench/RESULTS.md, session 15).  Session 47 (one H200 under MPS, 2
 * PEs): 8 KB per pair on one block still lost to LL's grid kernel, the
 * alltoall of 16 KB 4.34 -> 4.53 us in graph replay. */
#ifndef SHOAL_GPU_LL_ALLTOALL_MAX   /* a benchmark's build may set it */
#define SHOAL_GPU_LL_ALLTOALL_MAX (4u << 10)
#endif
/* An _on_stream call takes the one-block LL kernel up to this many bytes
 * per pair where LL's grid kernel could take it (reductions:
 * shoal_reduce_select; fcollect and broadcast: shoal_move_select_launch;
 * a user's block keeps the bounds above); beyond, the grid kernel, whose
 * threads poll fewer words each (one block's 1024 threads poll 4 words
 * each at 16 KB).  One H200 under MPS, 2 PEs, graph replay: the
 * all-reduce of 16 KB 5.59 -> 4.04 us (NVSHMEM 14.1) with an 8 KB bound;
 * with 4 KB the all-reduce of 8 KB 3.99 -> 3.67, the reduce-scatter of 16
 * KB (8 KB per pair) 5.11 -> 4.54 and fcollect of 16 KB 3.96 -> 3.61
 * (bench/RESULTS.md session 47).  A benchmark's build may set it. */
#ifndef SHOAL_GPU_LL_STREAM_BLOCK_MAX
#define SHOAL_GPU_LL_STREAM_BLOCK_MAX (4u << 10)
#endif
/* A grid whose blocks meet (a user's kernel) spreads LL's words over every
 * block, and a call may take several slots of the ring (collectives/ll.h):
 * every collective takes LL there while the LL words a member sends in the
 * call (twice the bytes per pair, to each of the n - 1 others) stay within
 * this many bytes, and within half the team's ring (SHOAL_GPU_LL_BYTES
 * sizes it): 256 KB per pair at 2 PEs, 85 KB at 4.  Beyond, the movers'
 * push was faster on stream at 2 H200 (512 KB per pair: fcollect 11.4
 * against 12.1-12.6 us, alltoall 11.5 against 12.5-13.0) while LL's
 * blocks still fenced (session 22); LL's _on_stream kernel now has its
 * own bound (SHOAL_GPU_LL_STREAM_SEND, below). */
#ifndef SHOAL_GPU_LL_GRID_SEND   /* a benchmark's build may set it */
#define SHOAL_GPU_LL_GRID_SEND (512u << 10)
#endif
/* The all-reduce in a user's grid, whose other forms meet twice and
 * reduce besides, up to twice that: 512 KB per pair at 2 PEs, 170 KB at
 * 4 (2 H200: 512 KB 11.4-11.7 us against the two-shot's 15.0; 1 MB per
 * pair, 15.4-15.9 against 15.8, is no gain).  bench/RESULTS.md, session 22. */
#define SHOAL_GPU_LL_GRID_REDUCE_SEND (1u << 20)
/* Where the members of a team share one GPU, the LL words of all of them,
 * n (n - 1) x 2 x bytes per pair, cross that GPU's memory; two bounds keep
 * them within a total `all` (below: the all-reduce in a user's grid, the
 * data movers' _on_stream kernel).  Whether `all` binds a call of
 * bytes_per_pair on a team of team_size, and the bytes per pair it leaves
 * (a 32-bit division, as shoal_ll_grid_max). */
SHOAL_SELECT_FN bool shoal_ll_all_binds(uint32_t all, int team_size, size_t bytes_per_pair)
{
  return 2 * (uint64_t)team_size * (uint64_t)(team_size - 1) * (uint64_t)bytes_per_pair > all;
}
SHOAL_SELECT_FN size_t shoal_ll_all_per_pair(uint32_t all, int team_size)
{
  if (team_size < 2) return SIZE_MAX;
  uint64_t words = 2 * (uint64_t)team_size * (uint64_t)(team_size - 1);
  return words > all ? 0 : all / (uint32_t)words;
}
/* Where every member of a team runs on this GPU (PEs under MPS), the
 * all-reduce in a user's grid takes LL only while the LL words of all the
 * members stay within this many bytes: one H200, LL won within 2 MB (3
 * PEs, 128 KB: 10.12 against 11.24 us) and lost beyond (3 PEs, 256 KB:
 * 13.36 against 11.37; 4 PEs, 128 KB: 14.03 against 11.73)
 * (bench/RESULTS.md, sessions 33 and 35). */
#ifndef SHOAL_GPU_LL_LOCAL_ALL   /* a benchmark's build may set it */
#define SHOAL_GPU_LL_LOCAL_ALL (2u << 20)
#endif
/* Whether it binds a call of bytes_per_pair; the slots of the ring (span,
 * at most) that keep a call within it on a team of team_size whose LL slot
 * is `slot` (2 x bytes per pair fit span slots). */
SHOAL_SELECT_FN bool shoal_ll_local_binds(int team_size, size_t bytes_per_pair)
{
  return shoal_ll_all_binds(SHOAL_GPU_LL_LOCAL_ALL, team_size, bytes_per_pair);
}
SHOAL_SELECT_FN size_t shoal_ll_local_span(size_t span, int team_size, size_t slot)
{
  if (team_size < 2 || !slot) return span;
  size_t words = 2 * shoal_ll_all_per_pair(SHOAL_GPU_LL_LOCAL_ALL, team_size);
  size_t local = slot > words ? 0 : (uint32_t)words / (uint32_t)slot;
  return local < span ? local : span;
}
/* Bytes per pair LL may carry at grid scope within `send` bytes of LL
 * words a member (a benchmark's build may set SHOAL_GPU_LL_GRID_MAX to
 * try one bound at every team size). */
SHOAL_SELECT_FN size_t shoal_ll_grid_max(int team_size, size_t send)
{
#ifdef SHOAL_GPU_LL_GRID_MAX
  (void)team_size;
  (void)send;
  return SHOAL_GPU_LL_GRID_MAX;
#else
  /* 32-bit: a 64-bit division is a long subroutine on a GPU, and a grid
   * call picks on every call (send < 2^32) */
  return (uint32_t)send / (2u * (uint32_t)(team_size > 1 ? team_size - 1 : 1));
#endif
}
/* _on_stream: LL's kernel over several blocks, each a lane with its share
 * of the words and no grid barrier (the kernel is fresh, and its last
 * block to finish counts the call: collectives/ll.h), where the data per
 * pair does not fit one slot but half the ring, up to this many bytes per
 * pair (SHOAL_GPU_STREAM_LL_MAX overrides it), each block taking
 * its share of them (shoal_ll_stream_blocks); ahead of the grid kernel.  Within LL
 * words a member sends in one call of (shoal_ll_stream_send):
 *  - one PE a GPU (peers over NVLink), SHOAL_GPU_LL_STREAM_SEND: 512 KB
 *    per pair at 2 PEs, 170 KB at 4.  Without its blocks' fences (session
 *    23) LL beat the push there up to 512 KB per pair: 2 H200, the
 *    all-reduce of 512 KB 12.49 -> 11.13 us, the reduce-scatter of 1 MB
 *    13.49 -> 11.80, fcollect of 1 MB 11.33 -> 10.89 (the reduce-scatter
 *    has a narrower bound since: shoal_reduce_ll_stream_max);
 *  - PEs that share a GPU (MPS), the movers' grid bound, 256 KB per pair
 *    at 2 PEs and 85 KB at 4: there the words cross the GPU's own memory,
 *    and LL's flags double them (one H200 under MPS, 512 KB per pair at 2
 *    PEs: alltoall of 1 MB 9.74 -> 12.15 us; 128 KB per pair at 4 PEs:
 *    16.36 -> 22.38).  bench/RESULTS.md session 24. */
#ifndef SHOAL_GPU_LL_STREAM_MAX   /* a benchmark's build may set it */
#define SHOAL_GPU_LL_STREAM_MAX (512u << 10)
#endif
#ifndef SHOAL_GPU_LL_STREAM_SEND   /* a benchmark's build may set it */
#define SHOAL_GPU_LL_STREAM_SEND (1u << 20)
#endif
/* The bound on LL words a member sends in one call of LL's _on_stream
 * kernel, as above (gpu_shared: some GPU runs two or more PEs). */
SHOAL_SELECT_FN size_t shoal_ll_stream_send(bool gpu_shared)
{
  return gpu_shared ? SHOAL_GPU_LL_GRID_SEND : SHOAL_GPU_LL_STREAM_SEND;
}
/* The host's bound for LL's _on_stream kernel, in bytes per pair on a
 * team of team_size: the knob (SHOAL_GPU_STREAM_LL_MAX), within that. */
SHOAL_SELECT_FN size_t shoal_ll_stream_max(size_t knob, int team_size, bool gpu_shared)
{
  size_t send = shoal_ll_grid_max(team_size, shoal_ll_stream_send(gpu_shared));
  return knob < send ? knob : send;
}
/* Blocks of LL's _on_stream kernel for bytes_per_pair (the host caps them
 * at what the GPU holds resident): one per SHOAL_GPU_LL_BLOCK_BYTES up to
 * SHOAL_GPU_LL_FINE_BLOCKS, then no more than one per twice that.  Each
 * block's threads poll a few words of each pair: more blocks, shorter
 * chains.  2 KB blocks against 4 KB (bench/RESULTS.md session 29): 4
 * H200, 2-8% faster from 32 KB to 256 KB per call at 2, 3 and 4 PEs (4
 * PEs, alltoall of 64 KB 9.47 -> 8.81 us, the reduce-scatter 9.54 ->
 * 9.00), but 3% slower at 512 KB per pair (2 PEs, fcollect of 1 MB 10.90
 * -> 11.21), where the coarse blocks stay; one H200 under MPS, 2 PEs, 2-7%
 * faster (the reduce-scatter of 32 KB 7.77 -> 7.26); 4 PEs -4% to +2%.
 * Between 128 and 256 KB per pair the 64 blocks cost 1-2% at 3 PEs on 4
 * H200 (170 KB per pair: fcollect of 512 KB 10.49 -> 10.68 us against 43
 * blocks of 4 KB).  64 KB a block lost 1.2-2.7x (session 22), 8 KB up to
 * 20% (session 29). */
#ifndef SHOAL_GPU_LL_BLOCK_BYTES   /* a benchmark's build may set it */
#define SHOAL_GPU_LL_BLOCK_BYTES (2u << 10)
#endif
#define SHOAL_GPU_LL_FINE_BLOCKS 64
SHOAL_SELECT_FN size_t shoal_ll_stream_blocks(size_t bytes_per_pair)
{
  size_t fine = (bytes_per_pair + SHOAL_GPU_LL_BLOCK_BYTES - 1) / SHOAL_GPU_LL_BLOCK_BYTES;
  if (fine <= SHOAL_GPU_LL_FINE_BLOCKS) return fine ? fine : 1;
  size_t coarse = (bytes_per_pair + 2 * SHOAL_GPU_LL_BLOCK_BYTES - 1) / (2 * SHOAL_GPU_LL_BLOCK_BYTES);
  return coarse > SHOAL_GPU_LL_FINE_BLOCKS ? coarse : SHOAL_GPU_LL_FINE_BLOCKS;
}
/* Where PEs share a GPU, blocks of half that size (1 KB a pair) where
 * the GPU holds them all at their own thread count (resident_fine: the
 * host asks, gpu_stream.h's shoal_gpu_ll_blocks), else the blocks above.
 * One H100 under MPS, against 2 KB blocks: 4-8% faster where the fine
 * ones fit (4 PEs, 8 KB per pair: fcollect 5.30 -> 5.07 us, alltoall 5.93
 * -> 5.50; 2 PEs, 16-32 KB per pair: fcollect 3.41 -> 3.19-3.23, alltoall
 * 3.63-3.66 -> 3.44), the same or 1-3% slower where they do not (2 PEs,
 * the all-reduce of 64 KB 3.28 -> 3.36) (bench/RESULTS.md session 55,
 * "b1k"; session 56 measured the rule: 4 PEs, alltoall of 32 KB 5.90 ->
 * 5.58 us, the reduce-scatter 4.77 -> 4.39).  Counted at their own thread
 * count, not at 1024 threads a block (which held them to 8 KB a pair at 4
 * PEs), 16 and 32 blocks of 1 KB took 4-15% off 4 PEs' 16-64 KB a pair
 * (fcollect of 256 KB 6.30 -> 5.38 us, alltoall 7.25 -> 6.21; session
 * 58); 512-byte blocks were mixed (session 58, "q").  Not measured over
 * NVLink: there 2 KB blocks stay. */
#ifndef SHOAL_GPU_LL_HALF_BLOCKS   /* a benchmark's build may set it (0: never) */
#define SHOAL_GPU_LL_HALF_BLOCKS 1
#endif
SHOAL_SELECT_FN size_t shoal_ll_stream_blocks_fine(size_t bytes_per_pair)
{
  size_t half = SHOAL_GPU_LL_BLOCK_BYTES / 2, fine = (bytes_per_pair + half - 1) / half;
  return fine ? fine : 1;
}
SHOAL_SELECT_FN size_t shoal_ll_stream_blocks_shared(size_t bytes_per_pair, size_t resident_fine)
{
  size_t want = shoal_ll_stream_blocks(bytes_per_pair), fine = shoal_ll_stream_blocks_fine(bytes_per_pair);
  return SHOAL_GPU_LL_HALF_BLOCKS && fine > want && fine <= resident_fine ? fine : want;
}
/* The data movers take LL's grid kernel only from this many bytes per
 * pair (where one block's LL does not carry them): from 8 KB since its
 * blocks arrive without fences (collectives/scope.h), 0.8 us less a call:
 * on one H200 under MPS, alltoall of 8 KB per pair at 2 PEs 7.09 -> 7.02 us
 * and of 16 KB 7.47 -> 7.15; at 4 PEs fcollect and alltoall of 16 KB per
 * pair 13.21 -> 11.86 and 13.55 -> 12.77, below NVSHMEM's 12.9 and 13.2
 * (bench/RESULTS.md session 23).  Before, it had lost there to the
 * one-block push (4 H200, session 20: 16 KB per pair, fcollect 10.7
 * against 10.1 us).  From 4 KB since session 28, where alltoall's block
 * LL stops (SHOAL_GPU_LL_ALLTOALL_MAX): its pairs of 4-8 KB took the
 * push, one H200 under MPS, 3 PEs, 16 KB (5.3 KB per pair) 13.04 ->
 * 10.52 us, NVSHMEM 12.61; fcollect and broadcast take block LL up to 8
 * KB, so the bound changes nothing for them.  The reductions, whose other
 * forms meet twice, take it from where one block's LL stops. */
#ifndef SHOAL_GPU_LL_STREAM_MOVE_MIN   /* a benchmark's build may set it */
#define SHOAL_GPU_LL_STREAM_MOVE_MIN (4u << 10)
#endif
/* Where PEs share a GPU, the data movers take LL's _on_stream kernel up
 * to this many bytes per pair; beyond, the grid push, since its kernel
 * takes what it would look up from the host (shoal_gpu_plan): one H200
 * under MPS, 2 PEs, 256 KB per pair, fcollect 7.89 -> 7.56 us and
 * alltoall 8.79 -> 8.09 in each of three runs, while LL still wins at 128
 * KB per pair (7.10 against 7.51 and 7.70 against 8.21) (bench/RESULTS.md
 * session 32). */
#define SHOAL_GPU_LL_SHARED_MOVE_MAX (128u << 10)
/* ... and while the LL words that all members send in the call, n (n - 1)
 * x 2 x bytes per pair, which all cross the one GPU's memory, stay within
 * this many bytes: one H200 under MPS, against the grid push, LL won at 3
 * PEs with 85 KB per pair (1 MB in all; alltoall 11.59 against 13.00 us,
 * fcollect 10.63 against 10.79) and at 4 PEs with 32 KB (768 KB; 11.85
 * against 12.81), and lost at 4 PEs with 64 KB (1.5 MB; alltoall 14.19
 * against 12.82, fcollect 12.60 against 12.32) (bench/RESULTS.md session
 * 35).  2 MB since LL's grid kernel moves two words a store at such
 * volumes (collectives/ll.h: shoal_ll_pairs_pay): one H100 under MPS, 4
 * PEs, 64 KB per pair, fcollect 7.75 -> 6.27 us and alltoall 8.28 ->
 * 7.30 against the push (a word a store: 7.34 and 8.69) (bench/RESULTS.md
 * session 57).  At 3 PEs that allows up to SHOAL_GPU_LL_SHARED_MOVE_MAX
 * (128 KB per pair; 85 KB was measured). */
#ifndef SHOAL_GPU_LL_SHARED_MOVE_ALL   /* a benchmark's build may set it */
#define SHOAL_GPU_LL_SHARED_MOVE_ALL (2u << 20)
#endif
SHOAL_SELECT_FN size_t shoal_move_ll_stream_max(size_t ll_stream_max, bool gpu_shared, int team_size)
{
  if (!gpu_shared || team_size < 2) return ll_stream_max;
  size_t all = shoal_ll_all_per_pair(SHOAL_GPU_LL_SHARED_MOVE_ALL, team_size);
  size_t max = all < SHOAL_GPU_LL_SHARED_MOVE_MAX ? all : SHOAL_GPU_LL_SHARED_MOVE_MAX;
  return ll_stream_max < max ? ll_stream_max : max;
}
/* Teams that span nodes (the layout allows hier): the hierarchical
 * all-reduce up to this many bytes of vector; beyond, the flat choice.
 * No limit: on an idle machine it won at every size from 8 B to 4 MB
 * (bench/RESULTS.md "Session 8: hierarchical ...": 1.4-7x on shm at 2 + 2 and 1.0-1.8x at
 * 3 + 1, 1.7-16x on tcp), and session 7's losses at 256 KB-1 MB came with
 * 4 PEs sharing one loaded core.  A size only: every member picks alike. */
#define SHOAL_HIER_MAX_BYTES SIZE_MAX
/* The same for the hierarchical reduce-scatter, in bytes of each member's
 * block (the same section of bench/RESULTS.md). */
#define SHOAL_HIER_SCATTER_MAX_BYTES SIZE_MAX

typedef enum shoal_allreduce_algo {
  /* the one-thread algorithms on the signal channels (shoal_coll_allreduce);
   * SHOAL_ALLREDUCE forces one of these (on the CPU) */
  SHOAL_ALLREDUCE_AUTO, SHOAL_ALLREDUCE_ONESHOT, SHOAL_ALLREDUCE_TWOSHOT, SHOAL_ALLREDUCE_RING,
  SHOAL_ALLREDUCE_PUSH,   /* one-shot through the pushbox: auto's choice for small messages */
  SHOAL_ALLREDUCE_HIER,   /* node-wise (collectives/hier.h): auto's choice on teams that span nodes
                           * (all-reduce and reduce-scatter) */
  /* the algorithms at a scope (what the CPU runs for ONESHOT and TWOSHOT on
   * load/store teams) */
  SHOAL_REDUCE_PULL,      /* one-shot pull; reduce-scatter */
  SHOAL_REDUCE_STAGED,    /* one-shot pull through scratch: private source, or in place */
  SHOAL_REDUCE_TWOSHOT,   /* two-shot, in place too */
  SHOAL_REDUCE_LL,        /* GPU block (a grid: its block 0): LL pushes (4- and 8-byte types),
                           * all-reduce and reduce-scatter (collectives/ll.h) */
  SHOAL_REDUCE_CHANNELS,  /* reduce-scatter, or a GPU's reduction: the channel algorithms */
  SHOAL_REDUCE_LAUNCH_BLOCK, SHOAL_REDUCE_LAUNCH_GRID,   /* _on_stream: which kernel */
  SHOAL_REDUCE_REFUSE,    /* bad input (a GPU's private source where peers must read it) */
  SHOAL_REDUCE_RING,      /* the chunked ring at a scope (reduce_ring.h): what RING runs on load/store teams */
  SHOAL_REDUCE_LAUNCH_LL, /* _on_stream: the one-block kernel of LL alone (gpu_stream.h) */
  SHOAL_REDUCE_LAUNCH_LL_GRID,   /* _on_stream: LL's kernel over several blocks (gpu_stream.h) */
} shoal_allreduce_algo;

/* Where the reduction is called from (the scope it runs at). */
typedef enum shoal_reduce_where {
  SHOAL_AT_CPU,     /* a CPU's blocking call: one lane of one thread */
  SHOAL_AT_BLOCK,   /* one GPU block (shmemx_*_reduce_block, the one-block _on_stream kernel) */
  SHOAL_AT_GRID,    /* every block of a kernel (shmemx_*_reduce_grid, the grid _on_stream kernel) */
  SHOAL_AT_STREAM,  /* the host's _on_stream call: which kernel to launch */
} shoal_reduce_where;

/* What the choice rests on: the same on every member (sizes, team,
 * symmetric addresses), so every member picks the same algorithm. */
typedef struct shoal_reduce_ask {
  int where;           /* shoal_reduce_where */
  int forced;          /* SHOAL_ALLREDUCE_* (the CPU's SHOAL_ALLREDUCE) or AUTO */
  bool scatter;        /* reduce-scatter: count is each member's block */
  size_t count, es;    /* elements of the result, bytes per element */
  int team_size;
  bool direct;         /* every member reachable by load/store, at most SHOAL_SCOPE_MAX_PEERS */
  bool in_place;       /* dest == source */
  bool src_sym, dest_sym;   /* in the symmetric heap (GPU: the GPU heap) */
  size_t pushbox_slot, scratch;   /* the team's (shoal_pushbox_slot_bytes, shoal_coll_scratch_size) */
  bool hier;           /* the team's node layout allows the hierarchical algorithm (teams/team.h) */
  size_t grid_min;     /* _on_stream: the table's (0), or the host's tuning override */
  size_t ll_stream_max;   /* _on_stream: LL's grid kernel up to this many bytes per pair (0: none) */
  bool gpu_shared;     /* _on_stream: some GPU runs two or more PEs (MPS) */
  bool ll_apart;       /* the _on_stream one-block kernel: LL has a kernel of its own
                        * (SHOAL_REDUCE_LAUNCH_LL), so this one never takes it */
  size_t ll_span;      /* slots of the LL ring a call may take per pair: 0 or 1 (one block),
                        * more for a grid whose blocks meet (shoal_ll_span_max) */
} shoal_reduce_ask;

/* The channel algorithm (never AUTO), given what the team can do:
 * one-shot in place and ring need scratch; teams without a pushbox or
 * scratch (the deprecated active sets) fall back to two-shot. */
SHOAL_SELECT_FN int shoal_allreduce_pick_ask(const shoal_reduce_ask *a)
{
  size_t bytes = a->count * a->es;
  int algo = a->forced;
  bool hier = a->hier && a->es > 0 && a->pushbox_slot >= a->es;   /* as shoal_hier_usable */
  if (algo == SHOAL_ALLREDUCE_AUTO && hier && bytes <= SHOAL_HIER_MAX_BYTES) algo = SHOAL_ALLREDUCE_HIER;
  if (algo == SHOAL_ALLREDUCE_HIER && !hier) algo = SHOAL_ALLREDUCE_AUTO;   /* forced where it does not apply */
  if (algo == SHOAL_ALLREDUCE_AUTO) {
    /* push while the vector fits one pushbox slot (one round); a longer
     * one would take a round per slot-sized chunk, so it is pulled */
    if (a->team_size <= 2 || bytes <= SHOAL_ONESHOT_MAX_BYTES)
      algo = bytes <= a->pushbox_slot ? SHOAL_ALLREDUCE_PUSH : SHOAL_ALLREDUCE_ONESHOT;
    else if (a->team_size < SHOAL_RING_MIN_PES) algo = SHOAL_ALLREDUCE_TWOSHOT;
    else algo = SHOAL_ALLREDUCE_RING;
  }
  if (algo == SHOAL_ALLREDUCE_PUSH && a->pushbox_slot < a->es) algo = SHOAL_ALLREDUCE_ONESHOT;   /* no pushbox */
  if (algo == SHOAL_ALLREDUCE_ONESHOT && a->in_place && a->scratch < a->es) algo = SHOAL_ALLREDUCE_TWOSHOT;
  if (algo == SHOAL_ALLREDUCE_RING && a->team_size > 1 &&
      ((a->scratch / (size_t)(a->team_size - 1)) & ~(size_t)15) < a->es)   /* shoal_ring_slot_elems */
    algo = SHOAL_ALLREDUCE_TWOSHOT;
  return algo;
}

/* The GPU's LL (collectives/ll.h): 4- and 8-byte types, half a pushbox
 * slot per pair -- the vector for the all-reduce, one member's block
 * (count elements, at most SHOAL_GPU_LL_MOVE_MAX bytes) for the
 * reduce-scatter.  Not in the kernel that LL's own kernel stands beside
 * (ll_apart; under a forced ring the host launches that one for LL sizes
 * too, and it then takes the ring or, where the ring does not fit, what
 * the block takes without LL: the pull, staged or two-shot). */
/* LL carries bytes per pair at a scope: a block in one slot, up to
 * block_max; where span > 1 (a grid whose blocks meet, LL's _on_stream
 * kernel) in up to span slots, within grid_send bytes of LL words a
 * member (shoal_ll_grid_max). */
SHOAL_SELECT_FN bool shoal_ll_fits_scope(size_t slot, size_t span, int team_size, size_t bytes, size_t block_max,
                                         size_t grid_send)
{
  if (span > 1)
    return shoal_ll_fits_span(slot, span, team_size, bytes) && bytes <= shoal_ll_grid_max(team_size, grid_send);
  return shoal_ll_fits_slot(slot, team_size, bytes) && bytes <= block_max;
}
SHOAL_SELECT_FN bool shoal_reduce_ll_fits(const shoal_reduce_ask *a)
{
  /* a user's grid: its bounds; the host's _on_stream launch and the check
   * of LL's kernel over several blocks (a block scope of span > 1): the
   * stream kernel's widest bound (the host narrows it: ll_stream_max) */
  size_t send = a->where == SHOAL_AT_GRID ? (a->scatter ? SHOAL_GPU_LL_GRID_SEND : SHOAL_GPU_LL_GRID_REDUCE_SEND)
                                          : SHOAL_GPU_LL_STREAM_SEND;
  return !a->ll_apart && (a->es == 4 || a->es == 8) &&
         shoal_ll_fits_scope(a->pushbox_slot, a->ll_span, a->team_size, a->count * a->es,
                             a->scatter ? SHOAL_GPU_LL_MOVE_MAX : SIZE_MAX, send);
}

/* The data movers (which: 0 broadcast, 1 fcollect, 2 alltoall; bytes: each
 * member's block) take LL on a team whose LL slot is `slot` (0: none), a
 * call taking at most `span` slots of the ring (1: one block; more: a grid
 * whose blocks meet): the kernels' choice and the host's launch
 * (shoal_move_select_launch) alike. */
SHOAL_SELECT_FN bool shoal_move_ll_fits_send(int which, size_t slot, size_t span, int team_size, size_t bytes,
                                             size_t send)
{
  return shoal_ll_words(bytes) &&
         shoal_ll_fits_scope(slot, span, team_size, bytes,
                             which == 2 ? SHOAL_GPU_LL_ALLTOALL_MAX : SHOAL_GPU_LL_MOVE_MAX, send);
}
/* A block, or a user's grid. */
SHOAL_SELECT_FN bool shoal_move_ll_fits(int which, size_t slot, size_t span, int team_size, size_t bytes)
{
  return shoal_move_ll_fits_send(which, slot, span, team_size, bytes, SHOAL_GPU_LL_GRID_SEND);
}
/* A warp's LL (the _warp collectives): each of its threads waits for its
 * LL words, from every peer, one after another, a round trip each, so LL
 * pays only while a thread has few of them: at most
 * SHOAL_GPU_WARP_LL_WORDS 4-byte words a thread from all peers together (a
 * warp of 32: 512 bytes per pair at 2 PEs, 170 at 4).  Unbounded, a warp's
 * LL took 0.7 us per word a thread (one H200 under MPS, 2 PEs, fcollect of
 * 8 KB: 48.7 us, NVSHMEM's 7.4); at 4 words it ties with the push (2 PEs,
 * 512 B: 5.19 against 5.38 us) and at 12 loses (4 PEs, 512 B: 8.60 against
 * 6.42), at 3 wins (4 PEs, 128 B: 3.81 against 6.32; bench/RESULTS.md
 * session 41).  A block (warp false) keeps the bounds above. */
#ifndef SHOAL_GPU_WARP_LL_WORDS   /* a benchmark's build may set it */
#define SHOAL_GPU_WARP_LL_WORDS 4u
#endif
SHOAL_SELECT_FN bool shoal_ll_lane_fits(bool warp, unsigned nthreads, int team_size, size_t bytes_per_pair)
{
  size_t peers = team_size > 1 ? (size_t)team_size - 1 : 0;
  return !warp || bytes_per_pair * peers <= (size_t)SHOAL_GPU_WARP_LL_WORDS * 4u * nthreads;
}
/* LL's _on_stream kernel over several blocks (span > 1; the host narrows
 * its bound: ll_stream_max). */
SHOAL_SELECT_FN bool shoal_move_ll_fits_stream(int which, size_t slot, size_t span, int team_size, size_t bytes)
{
  return shoal_move_ll_fits_send(which, slot, span, team_size, bytes, SHOAL_GPU_LL_STREAM_SEND);
}

/* The ring at a scope: every member reachable by load/store, dest
 * symmetric (the left neighbour stores into it); in place, a scratch slot
 * per round that holds a chunk.  The source is only read locally. */
SHOAL_SELECT_FN bool shoal_reduce_ring_fits(const shoal_reduce_ask *a)
{
  return !a->scatter && a->direct && a->dest_sym &&
         (!a->in_place || a->team_size < 2 ||
          shoal_ring_share_elems(shoal_ring_slot_bytes(a->scratch, a->team_size), a->es) > 0);
}

/* The bound of LL's _on_stream kernel for a reduction: the host's
 * (ll_stream_max), and for a reduce-scatter whose grid kernel can run
 * (grid) a narrower one:
 *  - one PE a GPU: 512 KB of LL words a member.  There the grid kernel's
 *    pull, at 512 threads a block, beats LL's on NVLink (4 H200, 4 PEs: a
 *    512 KB source, 128 KB per pair, 12.32 -> 11.14 us; 2 PEs: 1 MB 11.85
 *    -> 10.60), while LL still wins below (4 PEs, 256 KB: 10.64 against
 *    11.22; 2 PEs, 512 KB: 9.82 against 10.00; bench/RESULTS.md session
 *    27);
 *  - PEs sharing a GPU: none, the pull wherever it runs.  There LL's flags
 *    double the words in the GPU's own memory (one H200 under MPS, 4 PEs,
 *    a 256 KB source: 15.56 us through LL, 13.09 through the pull; 2 PEs:
 *    256 KB 8.04 against 8.00, 512 KB 9.48 through LL where 1 MB takes
 *    8.05 through the pull; session 28).
 * A source outside the heap keeps LL's wider bound: the grid kernel cannot
 * read it; so do members' blocks that are not whole 16-byte vectors, where
 * the pull lost while it read them element by element (3 PEs, a 512 KB
 * source: 11.47 us through LL, 14.37 through the pull, session 27), and
 * still loses since it reads them in vectors (session 28, gpu_reduce.h:
 * shoal_gpu_reduce_range_shifted): 4 H200, 3 PEs, a 512 KB source 11.50
 * us through LL, 13.28 through the pull (session 29). */
SHOAL_SELECT_FN size_t shoal_reduce_ll_stream_max(const shoal_reduce_ask *a, bool grid)
{
  size_t m = a->ll_stream_max;
  if (a->scatter && grid && (a->count * a->es) % 16 == 0) {
    size_t s = a->gpu_shared ? 0 : shoal_ll_grid_max(a->team_size, SHOAL_GPU_LL_GRID_SEND);
    if (s < m) m = s;
  }
  return m;
}

/* The one selection of every reduction. */
SHOAL_SELECT_FN int shoal_reduce_select(const shoal_reduce_ask *a)
{
  size_t bytes = a->count * a->es;
  if (a->where == SHOAL_AT_STREAM) {   /* the grid kernel reads the peers' sources in the GPU heap */
    size_t sbytes = a->scatter ? bytes * (size_t)a->team_size : bytes;
    size_t grid_min = a->grid_min ? a->grid_min : a->scatter ? SHOAL_GPU_SCATTER_GRID_MIN : SHOAL_GPU_ALLREDUCE_GRID_MIN;
    bool grid = a->team_size > 0 && sbytes >= grid_min && a->src_sym && !(a->scatter && a->in_place);
    /* LL's kernels where a block's (a grid's) choice, SHOAL_AT_BLOCK below
     * with span 1 (the team's), is certainly LL: pushbox_slot is the
     * team's LL slot (0: LL cannot run); a forced ring goes first for the
     * all-reduce there where it fits (which rests on dest), so then the
     * one-block kernel picks, without LL (ll_apart) */
    bool ll_ok = a->scatter || a->forced != SHOAL_ALLREDUCE_RING;
    shoal_reduce_ask one = *a;
    one.ll_span = 1;
    bool ll_block = ll_ok && shoal_reduce_ll_fits(&one);
    bool ll_grid = ll_ok && a->ll_span > 1 && bytes <= shoal_reduce_ll_stream_max(a, grid) && shoal_reduce_ll_fits(a);
    if (ll_block && ll_grid && bytes > SHOAL_GPU_LL_STREAM_BLOCK_MAX) ll_block = false;
    if (!grid && ll_block) return SHOAL_REDUCE_LAUNCH_LL;
    if (!ll_block && ll_grid) return SHOAL_REDUCE_LAUNCH_LL_GRID;
    return grid ? SHOAL_REDUCE_LAUNCH_GRID : SHOAL_REDUCE_LAUNCH_BLOCK;
  }
  if (a->scatter) {
    /* a GPU block or grid: LL where one member's block fits (any source:
     * each member pushes its own blocks); never on the CPU, whose pushbox
     * the other pushes share (collectives/ll.h) */
    if (a->where != SHOAL_AT_CPU && shoal_reduce_ll_fits(a)) return SHOAL_REDUCE_LL;
    if (!a->direct)   /* hierarchical as shoal_hier_usable, within its size limit */
      return a->hier && a->es > 0 && a->pushbox_slot >= a->es && bytes <= SHOAL_HIER_SCATTER_MAX_BYTES
                 ? SHOAL_ALLREDUCE_HIER : SHOAL_REDUCE_CHANNELS;
    return a->src_sym ? SHOAL_REDUCE_PULL : SHOAL_REDUCE_REFUSE;   /* peers read my source */
  }
  if (a->where == SHOAL_AT_CPU) {
    int algo = shoal_allreduce_pick_ask(a);
    /* the ring at a scope where SHOAL_ALLREDUCE=ring forces it; auto's
     * ring (SHOAL_RING_MIN_PES) stays on the channels: on the 2-core VM,
     * 9 PEs measured nothing but noise (bench/RESULTS.md, session 8) */
    if (algo == SHOAL_ALLREDUCE_RING && a->forced == SHOAL_ALLREDUCE_RING && shoal_reduce_ring_fits(a))
      return SHOAL_REDUCE_RING;
    if (!a->direct) return algo;
    if (algo == SHOAL_ALLREDUCE_ONESHOT) return a->in_place ? SHOAL_REDUCE_STAGED : SHOAL_REDUCE_PULL;
    if (algo == SHOAL_ALLREDUCE_TWOSHOT) return SHOAL_REDUCE_TWOSHOT;
    return algo;   /* push, ring */
  }
  /* a GPU block or grid: the ring only where SHOAL_ALLREDUCE=ring forces it */
  if (a->forced == SHOAL_ALLREDUCE_RING && shoal_reduce_ring_fits(a)) return SHOAL_REDUCE_RING;
  if (shoal_reduce_ll_fits(a)) return SHOAL_REDUCE_LL;
  if (!a->direct) return SHOAL_REDUCE_CHANNELS;
  if (!a->src_sym) return a->scratch >= a->es ? SHOAL_REDUCE_STAGED : SHOAL_REDUCE_REFUSE;
  if (a->in_place) return SHOAL_REDUCE_TWOSHOT;
  /* two-shot stores into the peers' dest: a private dest is the pull's */
  if (a->where == SHOAL_AT_BLOCK || bytes <= SHOAL_GRID_ONESHOT_MAX_BYTES || !a->dest_sym) return SHOAL_REDUCE_PULL;
  return SHOAL_REDUCE_TWOSHOT;
}

/* The _on_stream data movers (fcollect, alltoall, broadcast; bytes: each
 * member's block): the kernel the host launches.  The grid kernel from
 * SHOAL_GPU_MOVE_GRID_MIN (grid_min: the host's override) into a dest in
 * the GPU heap, from SHOAL_GPU_LL_STREAM_MOVE_MIN for a block that is not
 * whole words or is past LL's bound (ll_stream_max); below, one block: LL's kernel, whose every thread polls a
 * few words, where LL carries the block (ll_slot: the team's LL slot, 0
 * where LL cannot run), else the push's kernel of fewer threads, which
 * keep their state in registers (gpu_stream.h: SHOAL_GPU_PUSH_THREADS).  LL's
 * grid kernel goes before both where one block's LL does not fit but
 * half the team's ring does (ll_span: its slots, 0 or 1: none), up to
 * ll_stream_max bytes per pair. */
SHOAL_SELECT_FN int shoal_move_select_launch(int which, size_t bytes, bool dest_sym, size_t ll_slot,
                                             size_t ll_span, size_t ll_stream_max, int team_size,
                                             size_t grid_min)
{
  /* A block that is not whole 4-byte words takes no LL: from where LL's
   * grid kernel would start, the grid push instead of one block */
  size_t min = grid_min ? grid_min : shoal_ll_words(bytes) ? SHOAL_GPU_MOVE_GRID_MIN : SHOAL_GPU_LL_STREAM_MOVE_MIN;
  /* ... and past LL's bound where that stops short of the grid's minimum
   * (PEs sharing a GPU: shoal_move_ll_stream_max): there one block was
   * 1.2-1.6x slower than the push (one H200 under MPS, 3-4 PEs, 64-87 KB
   * a member; bench/RESULTS.md session 35) */
  if (!grid_min && ll_stream_max && bytes > ll_stream_max && min > SHOAL_GPU_LL_STREAM_MOVE_MIN)
    min = SHOAL_GPU_LL_STREAM_MOVE_MIN;
  bool grid = bytes >= min && dest_sym;
  bool ll_block = shoal_move_ll_fits(which, ll_slot, 1, team_size, bytes);
  /* LL's grid kernel (any dest), from SHOAL_GPU_LL_STREAM_MOVE_MIN, where
   * a block's LL does not fit or past SHOAL_GPU_LL_STREAM_BLOCK_MAX (the
   * small calls, paced by the host, skip the look) */
  bool ll_grid_tried = !ll_block || bytes > SHOAL_GPU_LL_STREAM_BLOCK_MAX;
  bool ll_grid = ll_grid_tried && ll_span > 1 && bytes >= SHOAL_GPU_LL_STREAM_MOVE_MIN && bytes <= ll_stream_max &&
                 shoal_move_ll_fits_stream(which, ll_slot, ll_span, team_size, bytes);
  if (ll_grid) return SHOAL_REDUCE_LAUNCH_LL_GRID;
  if (!grid && ll_block) return SHOAL_REDUCE_LAUNCH_LL;
  return grid ? SHOAL_REDUCE_LAUNCH_GRID : SHOAL_REDUCE_LAUNCH_BLOCK;
}

/* Where the host launches the grid push (launch: shoal_move_select_launch's
 * answer), fcollect and alltoall take the staged push instead (collectives/
 * push.h: shoal_push_staged, one meeting where the push has two) when the
 * team has staging buffers and a member's block fits its slot (stage_cap:
 * 0 where it has none; gpu/gpu_runtime.c gives them, with
 * SHOAL_GPU_STAGE=on, to teams whose members all share this GPU).  One
 * H200 under MPS, us per call, grid push -> staged, 512 KB
 * (bench/RESULTS.md session 34, job 10): 2 PEs, fcollect 7.48 -> 7.56,
 * alltoall 8.12 -> 7.70; 3 PEs, fcollect 11.28 -> 12.15; 4 PEs, 12.70 ->
 * 13.38.  With its meeting's number loaded early and the meetings'
 * atomics at the GPU's scope it was 6-11% ahead at 2 PEs (job 8), but
 * those changes cost the other collectives 2-5%. */
SHOAL_SELECT_FN bool shoal_move_staged(int which, int launch, size_t bytes, size_t stage_cap)
{
  return which != 0 && launch == SHOAL_REDUCE_LAUNCH_GRID && bytes <= stage_cap;
}

/* Does the choice rest on whether source and dest are symmetric?  Not
 * where a GPU block or grid takes LL (any buffers; the ring, which needs a
 * symmetric dest, is not forced ahead of it): a kernel then skips the
 * checks, loads of the heap bounds that a small call waits for. */
SHOAL_SELECT_FN bool shoal_reduce_needs_buffers(const shoal_reduce_ask *a)
{
  bool gpu = a->where == SHOAL_AT_BLOCK || a->where == SHOAL_AT_GRID;
  bool ll_first = a->scatter || a->forced != SHOAL_ALLREDUCE_RING;
  return !(gpu && ll_first && shoal_reduce_ll_fits(a));
}

/* What a team says about itself (on the target that holds its struct). */
SHOAL_FN void shoal_reduce_ask_team(shoal_reduce_ask *a, const shoal_team *t)
{
  a->team_size = t->size;
  a->pushbox_slot = t->pushbox ? shoal_pushbox_slot_bytes(t) : 0;
  a->scratch = shoal_coll_scratch_size(t);
  a->hier = t->hier != 0;
}

/* Auto takes the hierarchical all-reduce (the layout allows it, the vector
 * within SHOAL_HIER_MAX_BYTES); the GPU's remote path
 * (<shoal/gpu_remote_coll.h>) asks this. */
SHOAL_FN bool shoal_allreduce_hier_wins(const shoal_team *t, size_t count, size_t es)
{
  return shoal_hier_usable(t, es) && count <= SHOAL_HIER_MAX_BYTES / es;
}

/* The channel algorithm for teams with members behind the network (the
 * CPU's, and a GPU's behind its host proxy: <shoal/gpu_remote_coll.h>). */
SHOAL_FN int shoal_allreduce_pick(const shoal_team *t, int forced, size_t count, size_t es, int in_place)
{
  shoal_reduce_ask a;
  memset(&a, 0, sizeof a);
  shoal_reduce_ask_team(&a, t);
  a.forced = forced;
  a.count = count;
  a.es = es;
  a.in_place = in_place != 0;
  return shoal_allreduce_pick_ask(&a);
}

SHOAL_FN void shoal_coll_allreduce(shoal_team *t, int algo, int type, int op, void *dest,
                                   const void *src, size_t count)
{
  switch (algo) {
  case SHOAL_ALLREDUCE_PUSH: shoal_coll_reduce_push(t, type, op, dest, src, count); break;
  case SHOAL_ALLREDUCE_ONESHOT: shoal_coll_reduce_oneshot(t, type, op, dest, src, count); break;
  case SHOAL_ALLREDUCE_RING: shoal_coll_reduce_ring(t, type, op, dest, src, count); break;
  case SHOAL_ALLREDUCE_HIER: shoal_coll_reduce_hier(t, type, op, dest, src, count); break;
  default: shoal_coll_reduce_twoshot(t, type, op, dest, src, count); break;
  }
}

/* Reduce-scatter on a team with members behind the network (the CPU's, and
 * a GPU's behind its host proxy): the selection's HIER or CHANNELS. */
SHOAL_FN int shoal_reduce_scatter_pick(const shoal_team *t, size_t count, size_t es)
{
  shoal_reduce_ask a;
  memset(&a, 0, sizeof a);
  shoal_reduce_ask_team(&a, t);
  a.where = SHOAL_AT_CPU;   /* one thread on the signal channels */
  a.scatter = true;
  a.count = count;
  a.es = es;
  a.src_sym = a.dest_sym = true;
  return shoal_reduce_select(&a);
}

SHOAL_FN void shoal_coll_reduce_scatter_run(shoal_team *t, int algo, int type, int op, void *dest,
                                            const void *src, size_t count)
{
  if (algo == SHOAL_ALLREDUCE_HIER) shoal_coll_reduce_scatter_hier(t, type, op, dest, src, count);
  else shoal_coll_reduce_scatter(t, type, op, dest, src, count);
}

/* A reduction at a scope on a load/store team (algo: PULL, STAGED or
 * TWOSHOT; reduce-scatter: PULL), with the reducer r; ps, pd: the lane's
 * peer tables.  Without the ring: what a GPU's _on_stream grid kernel
 * holds inline (<shoal/gpu_stream.h>: the ring, which only SHOAL_ALLREDUCE=ring
 * picks there, goes out of line). */
SHOAL_REDUCER_TEMPLATE
SHOAL_FN void shoal_reduce_run_direct(const shoal_scope *s, shoal_team *t, const SHOAL_REDUCER *r, int algo,
                                      bool scatter, char **ps, char **pd, void *dest, const void *src, size_t n,
                                      const char *call)
{
  if (algo == SHOAL_REDUCE_TWOSHOT && !scatter) {
    shoal_reduce_twoshot_scope(s, t, r, ps, pd, dest, src, n, call);
    return;
  }
  size_t off = scatter ? shoal_reduce_scatter_off(t, n, shoal_reducer_size(r)) : 0;
  shoal_reduce_pull_scope(s, t, r, ps, dest, src, off, n, !scatter && algo == SHOAL_REDUCE_STAGED, call);
}
/* The same with the ring (algo RING, all-reduce only): the CPU's blocking
 * calls (one lane) and tests/coll/test_lanes (k lanes); a GPU block's and
 * a user's grid (<shoal/gpu_block.h> and <shoal/gpu_grid.h>, with its typed reducer). */
SHOAL_REDUCER_TEMPLATE
SHOAL_FN void shoal_reduce_run_scope(const shoal_scope *s, shoal_team *t, const SHOAL_REDUCER *r, int algo,
                                     bool scatter, char **ps, char **pd, void *dest, const void *src, size_t n,
                                     const char *call)
{
  if (algo == SHOAL_REDUCE_RING && !scatter) shoal_reduce_ring_scope(s, t, r, ps, pd, dest, src, n, call);
  else shoal_reduce_run_direct(s, t, r, algo, scatter, ps, pd, dest, src, n, call);
}

#endif
