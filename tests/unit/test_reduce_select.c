/* The reduction selection (collectives/reduce_select.h): where
 * shoal_reduce_needs_buffers says the choice does not rest on the buffers,
 * a GPU kernel skips their checks -- so the answer must then be the same
 * for every value of in_place, src_sym and dest_sym; and the shortcut must
 * be taken where LL is the answer (most small calls).  The data movers'
 * _on_stream launch (shoal_move_select_launch): the host launches LL's
 * kernel exactly where the one-block kernel then runs LL (shoal_move_ll_fits
 * on the team), and the grid kernel only into the heap from its threshold.
 * The reductions' _on_stream launch likewise: LL's kernel (which runs
 * nothing else) only where the one-block kernel's own choice is LL, for
 * every buffer the kernel may see.  LL's limits: the all-reduce takes the
 * whole slot, the reduce-scatter and fcollect and broadcast at most
 * SHOAL_GPU_LL_MOVE_MAX per pair, alltoall SHOAL_GPU_LL_ALLTOALL_MAX. */
#include "internal.h"
#include "../collectives/reduce_select.h"

#include <check.h>

shoal_dev_state shoal_dstate;

START_TEST(test_needs_buffers)
{
  const int wheres[] = {SHOAL_AT_CPU, SHOAL_AT_BLOCK, SHOAL_AT_GRID, SHOAL_AT_STREAM};
  const int forced[] = {SHOAL_ALLREDUCE_AUTO, SHOAL_ALLREDUCE_RING};
  const size_t counts[] = {1, 7, 512, 2048, 4096, 1u << 20}, ess[] = {1, 2, 4, 8};
  const int sizes[] = {1, 2, 3, 4, 9};
  const size_t slots[] = {0, 4096, 32768};
  int skipped = 0, ll_skipped = 0;
  for (size_t wi = 0; wi < 4; wi++)
    for (size_t fi = 0; fi < 2; fi++)
      for (int scatter = 0; scatter < 2; scatter++)
        for (size_t ci = 0; ci < sizeof counts / sizeof *counts; ci++)
          for (size_t ei = 0; ei < 4; ei++)
            for (size_t ni = 0; ni < sizeof sizes / sizeof *sizes; ni++)
              for (size_t si = 0; si < 3; si++)
                for (int direct = 0; direct < 2; direct++) {
                  shoal_reduce_ask a;
                  memset(&a, 0, sizeof a);
                  a.where = wheres[wi];
                  a.forced = forced[fi];
                  a.scatter = scatter;
                  a.count = counts[ci];
                  a.es = ess[ei];
                  a.team_size = sizes[ni];
                  a.direct = direct;
                  a.pushbox_slot = slots[si];
                  a.scratch = 1u << 18;
                  if (shoal_reduce_needs_buffers(&a)) continue;
                  skipped++;
                  int first = -1;
                  for (int b = 0; b < 8; b++) {
                    a.in_place = b & 1;
                    a.src_sym = (b >> 1) & 1;
                    a.dest_sym = (b >> 2) & 1;
                    int algo = shoal_reduce_select(&a);
                    if (first < 0) first = algo;
                    ck_assert_msg(algo == first, "where %d forced %d scatter %d count %zu es %zu n %d slot %zu: "
                                  "the choice changed with the buffers (%d, then %d)", a.where, a.forced, scatter,
                                  a.count, a.es, a.team_size, a.pushbox_slot, first, algo);
                  }
                  ck_assert_int_eq(first, SHOAL_REDUCE_LL);
                  ll_skipped++;
                }
  ck_assert_int_gt(skipped, 0);   /* the shortcut is taken at all */
  ck_assert_int_eq(skipped, ll_skipped);
}
END_TEST

START_TEST(test_move_launch)
{
  const size_t slots[] = {0, 4096, 32768}, grid_mins[] = {0, 65536};
  const size_t bytes[] = {0, 3, 4, 6, 2048, 2052, 4095, 4096, 4097, 4100, 8192, 16384, 16388, 16400, 65536, 87381,
                          131072, 131073, 1u << 20};
  const int sizes[] = {1, 2, 3, 4, 9, 64, 65};
  char box;   /* a pushbox's address: only whether there is one matters */
  int ll = 0, grid_ll = 0;
  for (int which = 0; which < 3; which++)
  for (size_t si = 0; si < 3; si++)
    for (size_t ni = 0; ni < sizeof sizes / sizeof *sizes; ni++)
      for (size_t bi = 0; bi < sizeof bytes / sizeof *bytes; bi++)
        for (int sym = 0; sym < 2; sym++)
          for (size_t gi = 0; gi < 2; gi++)
            for (size_t span = 0; span <= 16; span += 16) {   /* the team's ring: one slot a call, or 16 */
              shoal_team t;
              memset(&t, 0, sizeof t);
              t.size = sizes[ni];
              t.pushbox = slots[si] ? &box : NULL;
              t.pushbox_slot = slots[si];
              t.pushbox_depth = span ? 2 * (int)span : 8;
              size_t llmax = shoal_ll_stream_max(SHOAL_GPU_LL_STREAM_MAX, sizes[ni], sym);
              size_t b = bytes[bi], gmin = grid_mins[gi] ? grid_mins[gi]
                                           : b % 4 ? SHOAL_GPU_LL_STREAM_MOVE_MIN : SHOAL_GPU_MOVE_GRID_MIN;
              if (!grid_mins[gi] && llmax && b > llmax) gmin = SHOAL_GPU_LL_STREAM_MOVE_MIN;   /* past LL's bound */
              int launch = shoal_move_select_launch(which, b, sym, slots[si], span, llmax, sizes[ni], grid_mins[gi]);
              bool block_ll = shoal_move_ll_fits(which, shoal_ll_slot(&t), 1, t.size, b);
              if (launch == SHOAL_REDUCE_LAUNCH_LL_GRID) {   /* the kernel on several blocks takes LL there */
                /* where one block's LL does not carry it, or past its bound on the stream */
                ck_assert((!block_ll || b > SHOAL_GPU_LL_STREAM_BLOCK_MAX) && span > 1);
                ck_assert(shoal_move_ll_fits_stream(which, shoal_ll_slot(&t), shoal_ll_span_max(t.pushbox_depth), t.size,
                                                    b));
                grid_ll++;
                continue;
              }
              if (sym && b >= gmin) {
                ck_assert_int_eq(launch, SHOAL_REDUCE_LAUNCH_GRID);
                continue;
              }
              ck_assert_int_ne(launch, SHOAL_REDUCE_LAUNCH_GRID);
              ck_assert_msg((launch == SHOAL_REDUCE_LAUNCH_LL) == block_ll,
                            "mover %d, slot %zu, %d PEs, %zu bytes: launched %d, the kernel %s LL", which, slots[si],
                            sizes[ni], b, launch, block_ll ? "runs" : "does not run");
              ll += block_ll;
            }
  ck_assert_int_gt(ll, 0);
  ck_assert_int_gt(grid_ll, 0);
  /* LL's grid kernel: past one block's LL, within half the ring and the
   * limit, into any dest; not where the limit is 0 */
  ck_assert_int_eq(shoal_move_select_launch(1, 65536, true, 32768, 16, SHOAL_GPU_LL_STREAM_MAX, 2, 0),
                   SHOAL_REDUCE_LAUNCH_LL_GRID);
  ck_assert_int_eq(shoal_move_select_launch(1, 131072, false, 32768, 16, SHOAL_GPU_LL_STREAM_MAX, 2, 0),
                   SHOAL_REDUCE_LAUNCH_LL_GRID);
  ck_assert_int_eq(shoal_move_select_launch(1, 131072, true, 32768, 16, 0, 2, 0), SHOAL_REDUCE_LAUNCH_GRID);
  /* alltoall: one block's LL up to SHOAL_GPU_LL_ALLTOALL_MAX, LL's grid
   * kernel from just past it (session 28: 4-8 KB per pair took the push
   * before, 3 PEs 1.24x slower), and 8 KB per pair (session 23) */
  ck_assert_int_eq(shoal_move_select_launch(2, SHOAL_GPU_LL_ALLTOALL_MAX, true, 32768, 16,
                                            SHOAL_GPU_LL_STREAM_MAX, 2, 0), SHOAL_REDUCE_LAUNCH_LL);
  ck_assert_int_eq(shoal_move_select_launch(2, SHOAL_GPU_LL_ALLTOALL_MAX + 4, true, 32768, 16,
                                            SHOAL_GPU_LL_STREAM_MAX, 3, 0), SHOAL_REDUCE_LAUNCH_LL_GRID);
  ck_assert_int_eq(shoal_move_select_launch(2, 5460, true, 32768, 16, SHOAL_GPU_LL_STREAM_MAX, 3, 0),
                   SHOAL_REDUCE_LAUNCH_LL_GRID);
  ck_assert_int_eq(shoal_move_select_launch(2, 8192, true, 32768, 16, SHOAL_GPU_LL_STREAM_MAX, 2, 0),
                   SHOAL_REDUCE_LAUNCH_LL_GRID);
  /* below SHOAL_GPU_LL_STREAM_MOVE_MIN, where one block's LL does not fit
   * (a slot too small for it): the push */
  ck_assert_int_eq(shoal_move_select_launch(1, SHOAL_GPU_LL_STREAM_MOVE_MIN - 4, true, 1024, 16,
                                            SHOAL_GPU_LL_STREAM_MAX, 2, 0), SHOAL_REDUCE_LAUNCH_BLOCK);
  ck_assert_int_eq(shoal_move_select_launch(1, 16384, true, 32768, 16, SHOAL_GPU_LL_STREAM_MAX, 4, 0),
                   SHOAL_REDUCE_LAUNCH_LL_GRID);
  /* one block's LL where it carries the call, up to its bound on the stream */
  ck_assert_int_eq(shoal_move_select_launch(1, 8192, true, 32768, 16, SHOAL_GPU_LL_STREAM_MAX, 2, 0),
                   8192 <= SHOAL_GPU_LL_STREAM_BLOCK_MAX ? SHOAL_REDUCE_LAUNCH_LL : SHOAL_REDUCE_LAUNCH_LL_GRID);
  ck_assert_int_eq(shoal_move_select_launch(1, 1u << 20, true, 32768, 64, SHOAL_GPU_LL_STREAM_MAX, 2, 0),
                   SHOAL_REDUCE_LAUNCH_GRID);
  /* blocks that are not whole words (no LL): the grid push from
   * SHOAL_GPU_LL_STREAM_MOVE_MIN into a symmetric dest, one block below
   * it or into any other dest */
  ck_assert_int_eq(shoal_move_select_launch(1, 87381, true, 32768, 16, SHOAL_GPU_LL_STREAM_MAX, 3, 0),
                   SHOAL_REDUCE_LAUNCH_GRID);
  ck_assert_int_eq(shoal_move_select_launch(2, SHOAL_GPU_LL_STREAM_MOVE_MIN + 2, true, 32768, 16,
                                            SHOAL_GPU_LL_STREAM_MAX, 2, 0), SHOAL_REDUCE_LAUNCH_GRID);
  ck_assert_int_eq(shoal_move_select_launch(1, SHOAL_GPU_LL_STREAM_MOVE_MIN - 1, true, 32768, 16,
                                            SHOAL_GPU_LL_STREAM_MAX, 2, 0), SHOAL_REDUCE_LAUNCH_BLOCK);
  ck_assert_int_eq(shoal_move_select_launch(1, 87381, false, 32768, 16, SHOAL_GPU_LL_STREAM_MAX, 3, 0),
                   SHOAL_REDUCE_LAUNCH_BLOCK);
  ck_assert_int_eq(shoal_move_select_launch(1, 87381, true, 32768, 16, SHOAL_GPU_LL_STREAM_MAX, 3, 262144),
                   SHOAL_REDUCE_LAUNCH_BLOCK);
  /* PEs sharing a GPU: LL's kernel up to SHOAL_GPU_LL_SHARED_MOVE_MAX per
   * pair, the grid push beyond (session 32); each PE its own GPU: the bound
   * as it was */
  size_t shared_max = shoal_move_ll_stream_max(shoal_ll_stream_max(SHOAL_GPU_LL_STREAM_MAX, 2, true), true, 2);
  ck_assert_uint_eq(shared_max, SHOAL_GPU_LL_SHARED_MOVE_MAX);
  ck_assert_uint_eq(shoal_move_ll_stream_max(SHOAL_GPU_LL_STREAM_MAX, false, 4), SHOAL_GPU_LL_STREAM_MAX);
  ck_assert_uint_eq(shoal_move_ll_stream_max(4096, true, 4), 4096);
  ck_assert_uint_eq(shoal_move_ll_stream_max(SHOAL_GPU_LL_STREAM_MAX, true, 1), SHOAL_GPU_LL_STREAM_MAX);
  /* and within SHOAL_GPU_LL_SHARED_MOVE_ALL of LL words from all members
   * (sessions 35 and 57): at 3 PEs up to SHOAL_GPU_LL_SHARED_MOVE_MAX a
   * member stay LL, at 4 PEs 64 KB a member (a 256 KB fcollect) stay LL,
   * 96 KB take the push */
  for (int np = 3; np <= 4; np++) {
    size_t m = shoal_move_ll_stream_max(shoal_ll_stream_max(SHOAL_GPU_LL_STREAM_MAX, np, true), true, np);
    size_t all = SHOAL_GPU_LL_SHARED_MOVE_ALL / (2 * (size_t)np * (size_t)(np - 1));
    ck_assert_uint_eq(m, all < SHOAL_GPU_LL_SHARED_MOVE_MAX ? all : SHOAL_GPU_LL_SHARED_MOVE_MAX);
    ck_assert_uint_le(2 * (size_t)np * (size_t)(np - 1) * m, SHOAL_GPU_LL_SHARED_MOVE_ALL);
  }
  size_t m3 = shoal_move_ll_stream_max(shoal_ll_stream_max(SHOAL_GPU_LL_STREAM_MAX, 3, true), true, 3);
  size_t m4 = shoal_move_ll_stream_max(shoal_ll_stream_max(SHOAL_GPU_LL_STREAM_MAX, 4, true), true, 4);
  for (int which = 1; which <= 2; which++) {
    ck_assert_int_eq(shoal_move_select_launch(which, 87380, true, 32768, 64, m3, 3, 0), SHOAL_REDUCE_LAUNCH_LL_GRID);
    ck_assert_int_eq(shoal_move_select_launch(which, 131072, true, 32768, 64, m3, 3, 0), SHOAL_REDUCE_LAUNCH_LL_GRID);
    ck_assert_int_eq(shoal_move_select_launch(which, 262144, true, 32768, 64, m3, 3, 0), SHOAL_REDUCE_LAUNCH_GRID);
    ck_assert_int_eq(shoal_move_select_launch(which, 32768, true, 32768, 64, m4, 4, 0), SHOAL_REDUCE_LAUNCH_LL_GRID);
    ck_assert_int_eq(shoal_move_select_launch(which, 65536, true, 32768, 64, m4, 4, 0), SHOAL_REDUCE_LAUNCH_LL_GRID);
    ck_assert_int_eq(shoal_move_select_launch(which, 65536, false, 32768, 64, m4, 4, 0), SHOAL_REDUCE_LAUNCH_LL_GRID);
    /* past LL's bound, below the grid's minimum (128 KB a member): the
     * push, not one block; into a dest outside the heap one block */
    ck_assert_int_eq(shoal_move_select_launch(which, 98304, true, 32768, 64, m4, 4, 0), SHOAL_REDUCE_LAUNCH_GRID);
    ck_assert_int_eq(shoal_move_select_launch(which, 98304, false, 32768, 64, m4, 4, 0), SHOAL_REDUCE_LAUNCH_BLOCK);
    /* the host's override of the grid's minimum holds */
    ck_assert_int_eq(shoal_move_select_launch(which, 98304, true, 32768, 64, m4, 4, 262144),
                     SHOAL_REDUCE_LAUNCH_BLOCK);
  }
  /* each PE its own GPU: the bound as it was, one block up to the grid's
   * minimum where LL does not fit the team's ring */
  ck_assert_int_eq(shoal_move_select_launch(1, 65536, true, 32768, 1, SHOAL_GPU_LL_STREAM_MAX, 4, 0),
                   SHOAL_REDUCE_LAUNCH_BLOCK);
  ck_assert_int_eq(shoal_move_select_launch(1, 131072, true, 32768, 16, shared_max, 2, 0), SHOAL_REDUCE_LAUNCH_LL_GRID);
  ck_assert_int_eq(shoal_move_select_launch(2, 131072, true, 32768, 16, shared_max, 2, 0), SHOAL_REDUCE_LAUNCH_LL_GRID);
  ck_assert_int_eq(shoal_move_select_launch(1, 262144, true, 32768, 64, shared_max, 2, 0), SHOAL_REDUCE_LAUNCH_GRID);
  ck_assert_int_eq(shoal_move_select_launch(2, 262144, true, 32768, 64, shared_max, 2, 0), SHOAL_REDUCE_LAUNCH_GRID);
  /* the cases measured: fcollect and broadcast LL for 8 KB per member at 2
   * PEs, the push kernel for 16 KB (which the slot would carry) and 32 KB;
   * alltoall LL up to 4 KB */
  for (int which = 0; which < 2; which++) {
    ck_assert_int_eq(shoal_move_select_launch(which, 8192, true, 32768, 0, 0, 2, 0), SHOAL_REDUCE_LAUNCH_LL);
    ck_assert_int_eq(shoal_move_select_launch(which, 16384, true, 32768, 0, 0, 2, 0), SHOAL_REDUCE_LAUNCH_BLOCK);
  }
  ck_assert_int_eq(shoal_move_select_launch(2, 4096, true, 32768, 0, 0, 2, 0), SHOAL_REDUCE_LAUNCH_LL);
  ck_assert_int_eq(shoal_move_select_launch(2, 8192, true, 32768, 0, 0, 2, 0), SHOAL_REDUCE_LAUNCH_BLOCK);
  ck_assert(shoal_ll_fits_slot(32768, 2, 16384));
  ck_assert_int_eq(shoal_move_select_launch(1, 32768, true, 32768, 0, 0, 2, 0), SHOAL_REDUCE_LAUNCH_BLOCK);
  /* not words: the grid push into a symmetric dest, else one block */
  ck_assert_int_eq(shoal_move_select_launch(1, 8194, true, 32768, 0, 0, 2, 0), SHOAL_REDUCE_LAUNCH_GRID);
  ck_assert_int_eq(shoal_move_select_launch(1, 8194, false, 32768, 0, 0, 2, 0), SHOAL_REDUCE_LAUNCH_BLOCK);
  ck_assert_int_eq(shoal_move_select_launch(1, 8192, true, 32768, 0, 0, 65, 0), SHOAL_REDUCE_LAUNCH_BLOCK);  /* too many */
}
END_TEST

START_TEST(test_reduce_launch)
{
  const int forced[] = {SHOAL_ALLREDUCE_AUTO, SHOAL_ALLREDUCE_RING};
  const size_t counts[] = {1, 7, 512, 1024, 2048, 2049, 4096, 1u << 20}, ess[] = {1, 2, 4, 8};
  const int sizes[] = {1, 2, 3, 4, 9, 64, 65};
  const size_t slots[] = {0, 4096, 32768}, grid_mins[] = {0, 4096};
  int ll = 0, block = 0, grid_ll = 0;
  for (size_t fi = 0; fi < 2; fi++)
    for (int scatter = 0; scatter < 2; scatter++)
      for (size_t ci = 0; ci < sizeof counts / sizeof *counts; ci++)
        for (size_t ei = 0; ei < 4; ei++)
          for (size_t ni = 0; ni < sizeof sizes / sizeof *sizes; ni++)
            for (size_t si = 0; si < 3; si++)
              for (size_t gi = 0; gi < 2; gi++)
                for (int b = 0; b < 16; b++) {   /* in_place, src_sym, dest_sym, a ring of 16 slots a call */
                  shoal_reduce_ask a;
                  memset(&a, 0, sizeof a);
                  a.where = SHOAL_AT_STREAM;
                  a.ll_span = b & 8 ? 16 : 0;
                  a.ll_stream_max = shoal_ll_stream_max(SHOAL_GPU_LL_STREAM_MAX, sizes[ni], gi);
                  a.forced = forced[fi];
                  a.scatter = scatter;
                  a.count = counts[ci];
                  a.es = ess[ei];
                  a.team_size = sizes[ni];
                  a.pushbox_slot = slots[si];
                  a.grid_min = grid_mins[gi];
                  a.in_place = b & 1;
                  a.src_sym = b & 2;
                  int launch = shoal_reduce_select(&a);
                  if (launch == SHOAL_REDUCE_LAUNCH_GRID) continue;
                  if (launch == SHOAL_REDUCE_LAUNCH_LL_GRID) {   /* the kernel on several blocks takes LL */
                    ck_assert(a.ll_span > 1);
                    a.where = SHOAL_AT_BLOCK;
                    a.direct = sizes[ni] <= SHOAL_SCOPE_MAX_PEERS;
                    a.dest_sym = b & 4;
                    a.scratch = 1u << 16;
                    ck_assert_int_eq(shoal_reduce_select(&a), SHOAL_REDUCE_LL);
                    a.ll_span = 1;   /* and not on one, but past the one-block kernel's bound */
                    if (a.count * a.es <= SHOAL_GPU_LL_STREAM_BLOCK_MAX)
                      ck_assert_int_ne(shoal_reduce_select(&a), SHOAL_REDUCE_LL);
                    grid_ll++;
                    continue;
                  }
                  a.ll_span = 1;   /* LL's kernel and the one-block kernel run one block */
                  /* the one-block kernels' choice, whatever the buffers:
                   * LL's kernel takes LL; the other never does (ll_apart),
                   * and refuses only a reduce-scatter's private source */
                  a.where = SHOAL_AT_BLOCK;
                  a.direct = sizes[ni] <= SHOAL_SCOPE_MAX_PEERS;
                  a.dest_sym = b & 4;
                  a.scratch = 1u << 16;
                  if (launch == SHOAL_REDUCE_LAUNCH_LL) {
                    ll++;
                    ck_assert_msg(shoal_reduce_select(&a) == SHOAL_REDUCE_LL,
                                  "forced %d, scatter %d, %zu x %zu B, %d PEs, slot %zu, buffers %d: launched LL's "
                                  "kernel, the kernel picks %d", a.forced, scatter, a.count, a.es, a.team_size,
                                  a.pushbox_slot, b, shoal_reduce_select(&a));
                    continue;
                  }
                  block++;
                  a.ll_apart = true;
                  int k = shoal_reduce_select(&a);
                  ck_assert_msg(k != SHOAL_REDUCE_LL && (k != SHOAL_REDUCE_REFUSE || (scatter && !a.src_sym)),
                                "forced %d, scatter %d, %zu x %zu B, %d PEs, slot %zu, buffers %d: launched the "
                                "one-block kernel, which picks %d", a.forced, scatter, a.count, a.es, a.team_size,
                                a.pushbox_slot, b, k);
                }
  ck_assert_int_gt(ll, 0);
  ck_assert_int_gt(block, 0);
  ck_assert_int_gt(grid_ll, 0);
  /* the LL kernel where the slot carries it, not under a forced ring */
  shoal_reduce_ask a;
  memset(&a, 0, sizeof a);
  a.where = SHOAL_AT_STREAM;
  a.count = 1024;
  a.es = 4;
  a.team_size = 2;
  a.pushbox_slot = 32768;
  ck_assert_int_eq(shoal_reduce_select(&a), SHOAL_REDUCE_LAUNCH_LL);
  a.forced = SHOAL_ALLREDUCE_RING;
  ck_assert_int_eq(shoal_reduce_select(&a), SHOAL_REDUCE_LAUNCH_BLOCK);
  a.scatter = true;   /* the ring is the all-reduce's */
  ck_assert_int_eq(shoal_reduce_select(&a), SHOAL_REDUCE_LAUNCH_LL);
  a.pushbox_slot = 0;
  ck_assert_int_eq(shoal_reduce_select(&a), SHOAL_REDUCE_LAUNCH_BLOCK);
  /* an all-reduce that one slot carries, where LL's grid kernel could take
   * it too: one block up to SHOAL_GPU_LL_STREAM_BLOCK_MAX bytes (4
   * KB; a benchmark's build may set it) */
  a.forced = SHOAL_ALLREDUCE_AUTO;
  a.scatter = false;
  a.pushbox_slot = 32768;
  a.ll_span = 16;
  a.ll_stream_max = shoal_ll_stream_max(SHOAL_GPU_LL_STREAM_MAX, 2, true);
  for (size_t bytes = 4096; bytes <= 16384; bytes *= 2) {
    a.count = bytes / 4;
    ck_assert_int_eq(shoal_reduce_select(&a), bytes <= SHOAL_GPU_LL_STREAM_BLOCK_MAX ? SHOAL_REDUCE_LAUNCH_LL
                                                                                        : SHOAL_REDUCE_LAUNCH_LL_GRID);
  }
}
END_TEST

START_TEST(test_ll_limits)
{
  shoal_reduce_ask a;
  memset(&a, 0, sizeof a);
  a.where = SHOAL_AT_BLOCK;
  a.team_size = 2;
  a.pushbox_slot = 32768;   /* 2 PEs: LL carries 16 KB per pair */
  a.es = 4;
  a.direct = a.src_sym = a.dest_sym = true;
  a.scratch = 1u << 18;
  for (int scatter = 0; scatter < 2; scatter++) {
    a.scatter = scatter;
    a.count = SHOAL_GPU_LL_MOVE_MAX / 4;
    ck_assert_int_eq(shoal_reduce_select(&a), SHOAL_REDUCE_LL);
    a.count = 16384 / 4;
    ck_assert_int_eq(shoal_reduce_select(&a) == SHOAL_REDUCE_LL, !scatter);
    a.count = 16384 / 4 + 1;   /* past half the slot */
    ck_assert_int_ne(shoal_reduce_select(&a), SHOAL_REDUCE_LL);
  }
  for (int which = 0; which < 3; which++) {
    size_t max = which == 2 ? SHOAL_GPU_LL_ALLTOALL_MAX : SHOAL_GPU_LL_MOVE_MAX;
    ck_assert(shoal_move_ll_fits(which, 32768, 1, 2, max));
    ck_assert(!shoal_move_ll_fits(which, 32768, 1, 2, max + 4));
    ck_assert(!shoal_move_ll_fits(which, 0, 1, 2, 4));
    /* a grid whose blocks meet: several slots, up to the span and the grid's limit */
    ck_assert(shoal_move_ll_fits(which, 32768, 4, 2, 65536));
    ck_assert(!shoal_move_ll_fits(which, 32768, 4, 2, 65536 + 4));
    /* within the LL words a member sends in one call: 256 KB per pair at
     * 2 PEs, 85 KB at 4, on a ring with room for more */
    for (int np = 2; np <= 8; np++) {
      size_t lim = SHOAL_GPU_LL_GRID_SEND / (2 * (size_t)(np - 1));
      ck_assert(shoal_move_ll_fits(which, 1u << 20, 64, np, lim & ~(size_t)3));
      ck_assert(!shoal_move_ll_fits(which, 1u << 20, 64, np, (lim & ~(size_t)3) + 4));
    }
    ck_assert(shoal_move_ll_fits(which, 1u << 20, 64, 2, 256u << 10));
    ck_assert(!shoal_move_ll_fits(which, 0, 4, 2, 4));
  }
  ck_assert_uint_lt(SHOAL_GPU_LL_ALLTOALL_MAX, SHOAL_GPU_LL_MOVE_MAX);
  /* the same for the reductions at grid scope */
  a.ll_span = 4;
  for (int scatter = 0; scatter < 2; scatter++) {
    a.scatter = scatter;
    a.count = 65536 / 4;
    ck_assert_int_eq(shoal_reduce_select(&a), SHOAL_REDUCE_LL);
    a.count = 65536 / 4 + 1;
    ck_assert_int_ne(shoal_reduce_select(&a), SHOAL_REDUCE_LL);
  }
  /* a ring with room for more: a user's grid, the movers' bound and the
   * all-reduce's twice it (512 KB per pair at 2 PEs, 170 KB at 4); LL's
   * _on_stream kernel the stream's (the same), which the host narrows */
  a.pushbox_slot = 32768;   /* half the ring: 1 MB per pair */
  a.ll_span = 64;
  for (int np = 2; np <= 8; np++) {
    a.team_size = np;
    for (int where = 0; where < 2; where++) {
      a.where = where ? SHOAL_AT_GRID : SHOAL_AT_STREAM;
      a.ll_stream_max = SIZE_MAX;
      a.scatter = false;
      size_t lim = (where ? SHOAL_GPU_LL_GRID_REDUCE_SEND : SHOAL_GPU_LL_STREAM_SEND) / (2 * (size_t)(np - 1));
      int ll = where ? SHOAL_REDUCE_LL : SHOAL_REDUCE_LAUNCH_LL_GRID;
      a.count = lim / 4;
      ck_assert_int_eq(shoal_reduce_select(&a), ll);
      a.count = lim / 4 + 1;
      ck_assert_int_ne(shoal_reduce_select(&a), ll);
    }
  }
  a.team_size = 2;
  a.where = SHOAL_AT_GRID;
  a.count = (512u << 10) / 4;
  ck_assert_int_eq(shoal_reduce_select(&a), SHOAL_REDUCE_LL);
  a.count = (512u << 10) / 4 + 1;
  ck_assert_int_ne(shoal_reduce_select(&a), SHOAL_REDUCE_LL);
  a.scatter = true;   /* each member's block: the movers' bound */
  a.count = (256u << 10) / 4;
  ck_assert_int_eq(shoal_reduce_select(&a), SHOAL_REDUCE_LL);
  a.count = (256u << 10) / 4 + 1;
  ck_assert_int_ne(shoal_reduce_select(&a), SHOAL_REDUCE_LL);
  a.scatter = false;
  /* every member on this GPU: the all-reduce in a user's grid takes LL
   * while n (n - 1) x 2 x bytes per pair stay within
   * SHOAL_GPU_LL_LOCAL_ALL (shoal_ll_local_span narrows the span the
   * kernel asks with): the cells measured, 128 KB LL and 256 KB not at 3
   * PEs, 64 KB LL and 128 KB not at 4; 2 PEs as before */
  const size_t lslots[] = {8192, 32768};
  for (size_t si = 0; si < 2; si++) {
    a.pushbox_slot = lslots[si];
    for (int np = 2; np <= 8; np++) {
      a.team_size = np;
      a.ll_span = shoal_ll_local_span(64, np, lslots[si]);
      size_t lim = SHOAL_GPU_LL_LOCAL_ALL / (2 * (size_t)np * (size_t)(np - 1));
      a.count = lim / 4 + 1;
      ck_assert_int_ne(shoal_reduce_select(&a), SHOAL_REDUCE_LL);
      ck_assert_uint_le(2 * (size_t)np * (size_t)(np - 1) * a.ll_span * lslots[si] / 2, SHOAL_GPU_LL_LOCAL_ALL);
    }
    const struct { int np; size_t ll, past; } measured[] = {{3, 128u << 10, 256u << 10}, {4, 64u << 10, 128u << 10}};
    for (int k = 0; k < 2; k++) {
      a.team_size = measured[k].np;
      a.ll_span = shoal_ll_local_span(64, measured[k].np, lslots[si]);
      a.count = measured[k].ll / 4;
      ck_assert_int_eq(shoal_reduce_select(&a), SHOAL_REDUCE_LL);
      a.count = measured[k].past / 4;
      ck_assert_int_ne(shoal_reduce_select(&a), SHOAL_REDUCE_LL);
    }
    a.team_size = 2;   /* 512 KB per pair, as on a team that spans GPUs */
    a.ll_span = shoal_ll_local_span(64, 2, lslots[si]);
    a.count = (512u << 10) / 4;
    ck_assert_int_eq(shoal_reduce_select(&a) == SHOAL_REDUCE_LL, lslots[si] * 64 >= (1u << 20));
  }
  /* the kernel reads the team's gpu_local only where the bound binds */
  ck_assert(!shoal_ll_local_binds(2, 512u << 10));
  ck_assert(shoal_ll_local_binds(2, (512u << 10) + 4));
  ck_assert(!shoal_ll_local_binds(3, 128u << 10));
  ck_assert(shoal_ll_local_binds(3, 256u << 10));
  ck_assert(!shoal_ll_local_binds(4, 64u << 10));
  ck_assert(shoal_ll_local_binds(4, 128u << 10));
  ck_assert(!shoal_ll_local_binds(1, SIZE_MAX >> 8));
  ck_assert_uint_eq(shoal_ll_local_span(64, 1, 32768), 64);
  ck_assert_uint_eq(shoal_ll_local_span(64, 4, 0), 64);
  ck_assert_uint_eq(shoal_ll_local_span(64, 64, 1u << 20), 0);
  /* the bound both use, per pair */
  for (int np = 2; np <= 8; np++) {
    size_t per = shoal_ll_all_per_pair(SHOAL_GPU_LL_SHARED_MOVE_ALL, np);
    ck_assert_uint_eq(per, SHOAL_GPU_LL_SHARED_MOVE_ALL / (2 * (size_t)np * (size_t)(np - 1)));
    ck_assert(!shoal_ll_all_binds(SHOAL_GPU_LL_SHARED_MOVE_ALL, np, per));
    ck_assert(shoal_ll_all_binds(SHOAL_GPU_LL_SHARED_MOVE_ALL, np, per + 1));
    ck_assert_uint_eq(shoal_move_ll_stream_max(SIZE_MAX, true, np),
                      per < SHOAL_GPU_LL_SHARED_MOVE_MAX ? per : SHOAL_GPU_LL_SHARED_MOVE_MAX);
  }
  /* the two helpers agree, and a team too large for 32 bits leaves none */
  ck_assert_uint_eq(shoal_ll_all_per_pair(1u << 20, 1), SIZE_MAX);
  ck_assert_uint_eq(shoal_ll_all_per_pair(1u << 20, 1000), 0);
  ck_assert(shoal_ll_all_binds(1u << 20, 1000, 1));
  ck_assert_uint_eq(shoal_ll_all_per_pair(1u << 20, 70000), 0);
  a.pushbox_slot = 32768;
  a.team_size = 2;
  a.ll_span = 0;
  /* the host's bound for LL's _on_stream kernel: one PE a GPU, 512 KB per
   * pair at 2 PEs and 170 KB at 4; PEs sharing a GPU, the movers' grid
   * bound (256 KB and 85 KB); a smaller knob wins (session 24) */
  ck_assert_uint_eq(shoal_ll_stream_max(SHOAL_GPU_LL_STREAM_MAX, 2, false), 512u << 10);
  ck_assert_uint_eq(shoal_ll_stream_max(SHOAL_GPU_LL_STREAM_MAX, 2, true), 256u << 10);
  ck_assert_uint_eq(shoal_ll_stream_max(SHOAL_GPU_LL_STREAM_MAX, 4, false), (1u << 20) / 6);
  ck_assert_uint_eq(shoal_ll_stream_max(SHOAL_GPU_LL_STREAM_MAX, 4, true), (512u << 10) / 6);
  ck_assert_uint_eq(shoal_ll_stream_max(4096, 2, false), 4096);
  ck_assert_uint_eq(shoal_ll_stream_max(0, 2, false), 0);
  for (int shared = 0; shared < 2; shared++) {
    size_t b = shoal_ll_stream_max(SHOAL_GPU_LL_STREAM_MAX, 2, shared);
    ck_assert_int_eq(shoal_move_select_launch(1, b, true, 32768, 64, b, 2, 0), SHOAL_REDUCE_LAUNCH_LL_GRID);
    ck_assert_int_eq(shoal_move_select_launch(1, b + 4, true, 32768, 64, b, 2, 0), SHOAL_REDUCE_LAUNCH_GRID);
  }
  /* The reduce-scatter on stream, where its grid kernel can run (a
   * symmetric source): LL's kernel within 512 KB of LL words a member
   * where each PE has its own GPU (session 27), never where PEs share one
   * (session 28); a source outside the heap, or members' blocks that are
   * not whole 16-byte vectors, keep the host's wider bound. */
  for (int np = 2; np <= 8; np++)
    for (int shared = 0; shared < 2; shared++)
      for (int sym = 0; sym < 2; sym++) {
        shoal_reduce_ask r;
        memset(&r, 0, sizeof r);
        r.where = SHOAL_AT_STREAM;
        r.scatter = true;
        r.es = 4;
        r.team_size = np;
        r.pushbox_slot = 32768;
        r.ll_span = 64;
        r.src_sym = sym;
        r.dest_sym = true;
        r.ll_stream_max = shoal_ll_stream_max(SHOAL_GPU_LL_STREAM_MAX, np, shared);
        r.gpu_shared = shared;
        size_t narrow = shoal_ll_grid_max(np, 512u << 10) & ~(size_t)15, wide = r.ll_stream_max & ~(size_t)15;
        r.count = narrow / 4;
        int at_narrow = shoal_reduce_select(&r);
        r.count = narrow / 4 + 4;
        int past_narrow = shoal_reduce_select(&r);
        r.count = narrow / 4 + 5;   /* blocks not whole vectors: the pull reads them slowly */
        int odd = shoal_reduce_select(&r);
        r.count = wide / 4;
        int at_wide = shoal_reduce_select(&r);
        if (!shared) ck_assert_msg(odd == SHOAL_REDUCE_LAUNCH_LL_GRID, "np %d sym %d: %d", np, sym, odd);
        r.count = (SHOAL_GPU_SCATTER_GRID_MIN / (size_t)np + 15) / 16 * 4;   /* the grid's smallest source */
        int at_grid_min = shoal_reduce_select(&r);
        r.count = (SHOAL_GPU_SCATTER_GRID_MIN / (size_t)np) / 16 * 4 - 4;   /* below it: LL, as before */
        ck_assert_msg(shoal_reduce_select(&r) == SHOAL_REDUCE_LAUNCH_LL_GRID, "np %d shared %d sym %d", np, shared, sym);
        ck_assert_msg(at_narrow == (sym && shared ? SHOAL_REDUCE_LAUNCH_GRID : SHOAL_REDUCE_LAUNCH_LL_GRID),
                      "np %d shared %d sym %d: %d", np, shared, sym, at_narrow);
        ck_assert_msg(at_grid_min == (sym && shared ? SHOAL_REDUCE_LAUNCH_GRID : SHOAL_REDUCE_LAUNCH_LL_GRID),
                      "np %d shared %d sym %d: %d", np, shared, sym, at_grid_min);
        if (sym) {
          ck_assert_msg(past_narrow == SHOAL_REDUCE_LAUNCH_GRID, "np %d shared %d: %d", np, shared, past_narrow);
        } else {
          ck_assert_msg(at_wide == SHOAL_REDUCE_LAUNCH_LL_GRID, "np %d shared %d: %d", np, shared, at_wide);
          if (!shared) ck_assert_int_eq(past_narrow, SHOAL_REDUCE_LAUNCH_LL_GRID);
        }
      }
}
END_TEST

/* A call's slots, and the most a call may take (half the ring: a
 * receiver's credits lag by less than a batch, collectives/ll.h). */
START_TEST(test_ll_span)
{
  ck_assert_uint_eq(shoal_ll_call_slots(32768, 1), 1);
  ck_assert_uint_eq(shoal_ll_call_slots(32768, 16384), 1);
  ck_assert_uint_eq(shoal_ll_call_slots(32768, 16388), 2);
  ck_assert_uint_eq(shoal_ll_call_slots(32768, 65536), 4);
  ck_assert_uint_eq(shoal_ll_span_max(8), 4);
  ck_assert_uint_eq(shoal_ll_span_max(1), 1);
  ck_assert(shoal_ll_fits_span(32768, 4, 2, 65536));
  ck_assert(!shoal_ll_fits_span(32768, 4, 2, 65540));
  ck_assert(!shoal_ll_fits_span(32768, 4, SHOAL_SCOPE_MAX_PEERS + 1, 4));
  /* a team's slots and credit batches: a sender k pushes ahead may take m
   * slots while the receiver's published credits lag by up to batch - 1 */
  for (int depth = 1; depth <= 64; depth++) {
    uint64_t batch = shoal_ll_span_max(depth), m = shoal_ll_span_max(depth);
    ck_assert_uint_le(m + batch - 1, (uint64_t)depth);
  }
}
END_TEST

/* The _on_stream grid kernel's reduce-scatter takes the pull without
 * running the selection where every member fits a lane's peer tables and
 * the source is symmetric (<shoal/gpu_grid.h>: shoal_grid_reduce_any): the
 * selection's answer there must be the pull, whatever else the team and
 * the call say -- and where either fails, never the pull. */
START_TEST(test_grid_scatter_pull)
{
  const size_t counts[] = {1, 7, 4096, 1u << 20, (size_t)1 << 28}, ess[] = {1, 2, 4, 8, 16};
  const size_t slots[] = {0, 4096, 32768};
  int checked = 0;
  for (int size = 1; size <= SHOAL_SCOPE_MAX_PEERS + 2; size++)
    for (size_t ci = 0; ci < sizeof counts / sizeof *counts; ci++)
      for (size_t ei = 0; ei < sizeof ess / sizeof *ess; ei++)
        for (size_t si = 0; si < 3; si++)
          for (int b = 0; b < 32; b++) {
            shoal_reduce_ask a;
            memset(&a, 0, sizeof a);
            a.where = SHOAL_AT_GRID;
            a.forced = b & 1 ? SHOAL_ALLREDUCE_RING : SHOAL_ALLREDUCE_AUTO;
            a.scatter = true;
            a.count = counts[ci];
            a.es = ess[ei];
            a.team_size = size;
            a.direct = size <= SHOAL_SCOPE_MAX_PEERS;   /* as shoal_gpu_reduce_pick */
            a.pushbox_slot = slots[si];
            a.scratch = 1u << 18;
            a.ll_apart = true;   /* an _on_stream grid kernel: no LL */
            a.ll_span = shoal_ll_span_max(8);
            a.in_place = (b >> 1) & 1;
            a.src_sym = (b >> 2) & 1;
            a.dest_sym = (b >> 3) & 1;
            a.hier = (b >> 4) & 1;
            bool shortcut = a.direct && a.src_sym;
            int algo = shoal_reduce_select(&a);
            ck_assert_msg(shortcut == (algo == SHOAL_REDUCE_PULL),
                          "n %d count %zu es %zu slot %zu case %d: the selection says %d", size, a.count, a.es,
                          a.pushbox_slot, b, algo);
            checked++;
          }
  ck_assert_int_gt(checked, 0);
}
END_TEST

/* Blocks of LL's _on_stream kernel (before the host's cap at what is
 * resident): one per 2 KB per pair up to 64, then one per 4 KB, never
 * fewer than 64 there: the counts measured in session 29 (2 KB blocks
 * where they won, 4 KB ones from 256 KB per pair); never none, never
 * fewer for more bytes. */
START_TEST(test_ll_stream_blocks)
{
  ck_assert_uint_eq(SHOAL_GPU_LL_BLOCK_BYTES, 2048);
  ck_assert_uint_eq(shoal_ll_stream_blocks(0), 1);
  ck_assert_uint_eq(shoal_ll_stream_blocks(4), 1);
  ck_assert_uint_eq(shoal_ll_stream_blocks(2048), 1);
  ck_assert_uint_eq(shoal_ll_stream_blocks(2052), 2);
  ck_assert_uint_eq(shoal_ll_stream_blocks(16u << 10), 8);   /* 4 with 4 KB blocks */
  ck_assert_uint_eq(shoal_ll_stream_blocks(128u << 10), 64);
  ck_assert_uint_eq(shoal_ll_stream_blocks((128u << 10) + 4), 64);
  ck_assert_uint_eq(shoal_ll_stream_blocks(192u << 10), 64);
  ck_assert_uint_eq(shoal_ll_stream_blocks(256u << 10), 64);
  ck_assert_uint_eq(shoal_ll_stream_blocks((256u << 10) + 4), 65);
  ck_assert_uint_eq(shoal_ll_stream_blocks(512u << 10), 128);
  size_t prev = 0;
  for (size_t b = 0; b <= (1u << 20); b += 4) {
    size_t k = shoal_ll_stream_blocks(b);
    ck_assert_msg(k >= 1 && k >= prev, "%zu bytes per pair: %zu blocks after %zu", b, k, prev);
    ck_assert_msg(b == 0 || (k - 1) * SHOAL_GPU_LL_BLOCK_BYTES < b, "%zu bytes per pair: an empty block of %zu", b, k);
    prev = k;
  }
}
END_TEST

/* Where PEs share a GPU: 1 KB blocks where all are resident at their own
 * thread count (a PE's cap at 1024 threads: 8 at 4 PEs on one H100 under
 * MPS, 33 at 2; more at fewer threads), else the blocks above; never
 * fewer blocks than those, never an empty one. */
START_TEST(test_ll_stream_blocks_shared)
{
  ck_assert_uint_eq(shoal_ll_stream_blocks_fine(0), 1);
  ck_assert_uint_eq(shoal_ll_stream_blocks_fine(4), 1);
  ck_assert_uint_eq(shoal_ll_stream_blocks_fine(1024), 1);
  ck_assert_uint_eq(shoal_ll_stream_blocks_fine(1028), 2);
  ck_assert_uint_eq(shoal_ll_stream_blocks_fine(64u << 10), 64);
  ck_assert_uint_eq(shoal_ll_stream_blocks_shared(16u << 10, 16), 16);  /* 4 PEs, fcollect of 64 KB: 256 threads a block */
  ck_assert_uint_eq(shoal_ll_stream_blocks_shared(64u << 10, 64), 64);  /* 4 PEs, fcollect of 256 KB */
  ck_assert_uint_eq(shoal_ll_stream_blocks_shared(64u << 10, 63), 32);  /* one short: the 2 KB blocks */
  ck_assert_uint_eq(shoal_ll_stream_blocks_shared(0, 1), 1);
  ck_assert_uint_eq(shoal_ll_stream_blocks_shared(1024, 8), 1);
  ck_assert_uint_eq(shoal_ll_stream_blocks_shared(2048, 8), 2);
  ck_assert_uint_eq(shoal_ll_stream_blocks_shared(8u << 10, 8), 8);     /* 4 PEs, fcollect of 32 KB */
  ck_assert_uint_eq(shoal_ll_stream_blocks_shared(16u << 10, 8), 8);    /* 16 fine ones: the 2 KB blocks */
  ck_assert_uint_eq(shoal_ll_stream_blocks_shared(32u << 10, 33), 32);  /* 2 PEs */
  ck_assert_uint_eq(shoal_ll_stream_blocks_shared(64u << 10, 33), 32);
  ck_assert_uint_eq(shoal_ll_stream_blocks_shared(8u << 10, 1), 4);
  for (size_t cap = 1; cap <= 264; cap = cap * 2 + 1)
    for (size_t b = 4; b <= (1u << 20); b = b * 3 / 2 + 4) {
      size_t k = shoal_ll_stream_blocks_shared(b, cap), coarse = shoal_ll_stream_blocks(b);
      ck_assert_msg(k >= coarse, "%zu bytes per pair, cap %zu: %zu blocks, fewer than %zu", b, cap, k, coarse);
      ck_assert_msg(k == coarse || k <= cap, "%zu bytes per pair, cap %zu: %zu fine blocks", b, cap, k);
      ck_assert_msg((k - 1) * (SHOAL_GPU_LL_BLOCK_BYTES / 2) < b, "%zu bytes per pair: an empty block of %zu", b, k);
      ck_assert_msg(k == coarse || k == shoal_ll_stream_blocks_fine(b), "%zu bytes per pair: %zu blocks", b, k);
    }
}
END_TEST

/* LL's pairs (collectives/ll.h): one block at up to 2 PEs; a grid from
 * SHOAL_LL_PAIRS_GRID_MIN bytes a member sends (session 57: 4 PEs' 32 KB
 * per pair and up, 2 PEs' 128 KB). */
START_TEST(test_ll_pairs_pay)
{
  ck_assert(shoal_ll_pairs_pay(false, 1024, 2));
  ck_assert(shoal_ll_pairs_pay(false, 4096, 2));
  ck_assert(!shoal_ll_pairs_pay(false, 1024, 3));
  ck_assert(!shoal_ll_pairs_pay(false, 4096, 4));
  ck_assert(!shoal_ll_pairs_pay(true, 16u << 10, 4));
  ck_assert(shoal_ll_pairs_pay(true, 32u << 10, 4));
  ck_assert(shoal_ll_pairs_pay(true, 64u << 10, 4));
  ck_assert(!shoal_ll_pairs_pay(true, 64u << 10, 2));
  ck_assert(shoal_ll_pairs_pay(true, 128u << 10, 2));
  ck_assert(shoal_ll_pairs_pay(true, 48u << 10, 3));
  ck_assert(!shoal_ll_pairs_pay(true, (48u << 10) - 4, 3));
}
END_TEST

/* The staged push replaces the grid push, for fcollect and alltoall only,
 * where a member's block fits the team's staging slot (none: 0). */
START_TEST(test_move_staged)
{
  const size_t cap = 262128;   /* 2 MB of staging at 4 PEs: (2M - 64) / 8, cut to 16 */
  for (int which = 0; which < 3; which++)
    for (size_t b = 4097; b <= (1u << 20); b = b * 2 + 1) {
      bool want = which != 0 && b <= cap;
      ck_assert_int_eq(shoal_move_staged(which, SHOAL_REDUCE_LAUNCH_GRID, b, cap), want);
      ck_assert(!shoal_move_staged(which, SHOAL_REDUCE_LAUNCH_GRID, b, 0));
      ck_assert(!shoal_move_staged(which, SHOAL_REDUCE_LAUNCH_LL_GRID, b, cap));
      ck_assert(!shoal_move_staged(which, SHOAL_REDUCE_LAUNCH_BLOCK, b, cap));
    }
  ck_assert(shoal_move_staged(1, SHOAL_REDUCE_LAUNCH_GRID, cap, cap));
  ck_assert(!shoal_move_staged(2, SHOAL_REDUCE_LAUNCH_GRID, cap + 1, cap));
  /* where the PEs share a GPU the grid push starts past LL's bound: the
   * staged push takes 128 KB + 16 a member at 4 PEs */
  size_t b = SHOAL_GPU_LL_SHARED_MOVE_MAX + 16;
  int launch = shoal_move_select_launch(1, b, true, 8192, 64, shoal_move_ll_stream_max(SHOAL_GPU_LL_STREAM_MAX, true, 4),
                                        4, 0);
  ck_assert_int_eq(launch, SHOAL_REDUCE_LAUNCH_GRID);
  ck_assert(shoal_move_staged(1, launch, b, cap));
}
END_TEST

/* A warp's LL: at most SHOAL_GPU_WARP_LL_WORDS words of 4 bytes a thread
 * from all peers together; a block has no such bound. */
START_TEST(test_ll_lane)
{
  const size_t cap = SHOAL_GPU_WARP_LL_WORDS * 4u * 32u;   /* a warp of 32: 512 bytes */
  for (int np = 1; np <= 8; np++)
    for (size_t b = 0; b <= 4 * cap; b += 4) {
      bool want = np == 1 || b * (size_t)(np - 1) <= cap;
      ck_assert_int_eq(shoal_ll_lane_fits(true, 32, np, b), want);
      ck_assert(shoal_ll_lane_fits(false, 32, np, b));
      ck_assert(shoal_ll_lane_fits(false, 1024, np, b));
    }
  ck_assert(shoal_ll_lane_fits(true, 32, 2, 512) && !shoal_ll_lane_fits(true, 32, 2, 516));
  ck_assert(shoal_ll_lane_fits(true, 32, 4, 168) && !shoal_ll_lane_fits(true, 32, 4, 172));
  ck_assert(shoal_ll_lane_fits(true, 64, 2, 1024) && !shoal_ll_lane_fits(true, 64, 2, 1028));   /* AMD's wavefront */
}
END_TEST

int main(void)
{
  Suite *s = suite_create("reduce_select");
  TCase *tc = tcase_create("needs_buffers");
  tcase_add_test(tc, test_needs_buffers);
  tcase_add_test(tc, test_move_launch);
  tcase_add_test(tc, test_reduce_launch);
  tcase_add_test(tc, test_ll_limits);
  tcase_add_test(tc, test_ll_span);
  tcase_add_test(tc, test_grid_scatter_pull);
  tcase_add_test(tc, test_ll_stream_blocks);
  tcase_add_test(tc, test_ll_stream_blocks_shared);
  tcase_add_test(tc, test_ll_pairs_pay);
  tcase_add_test(tc, test_move_staged);
  tcase_add_test(tc, test_ll_lane);
  suite_add_tcase(s, tc);
  SRunner *r = srunner_create(s);
  srunner_run_all(r, CK_NORMAL);
  int failed = srunner_ntests_failed(r);
  srunner_free(r);
  return failed ? 1 : 0;
}
