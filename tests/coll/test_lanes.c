/* The lane algorithms of collectives/push.h at a scope of several lanes,
 * on the CPU: each PE starts k threads, and thread b runs fcollect,
 * broadcast or alltoall as lane b of k -- its own share of the bytes, its
 * own arrival counter met by lane b of the other members, and the lanes of
 * a PE meeting before and after -- the way a GPU grid of k blocks runs
 * them.  Fresh random data every repetition, poisoned outputs, every byte
 * checked, odd sizes and misaligned buffers, a strided team, broadcast in
 * place, 100+ repetitions back to back (nobody resets a counter).  The
 * staged push (collectives/push.h: shoal_push_staged, into the members'
 * staging buffers, one meeting) the same way, fcollect and alltoall, 16-40
 * calls back to back so that the halves of the staging buffer alternate.
 * Then the public calls at a size where the library itself picks the push.
 *
 * The reductions of collectives/ (reduce_oneshot.h, reduce_twoshot.h,
 * reduce_scatter.h) the same way: the one-shot pull, the staged pull (in
 * place and not; lanes.sh makes the scratch small, so it takes many
 * chunks), two-shot (in place and not), reduce-scatter and the ring
 * (reduce_ring.h, in place and not; in place in many segments of the small
 * scratch), several types and operators, odd and misaligned sizes, 120 repetitions of the small
 * ones back to back.
 *
 * The LL collectives of collectives/ll.h (flags in the data; what a GPU
 * block runs for small messages) the same way: broadcast (in place too),
 * fcollect, alltoall, all-reduce of 4- and 8-byte types (in place too) and
 * reduce-scatter of the same types (half the repetitions from a private
 * source: LL reads it only locally), from one word up to half the team's
 * ring (one slot, one slot and a word: calls of several slots, which wrap
 * round the ring's end), misaligned buffers,
 * 40 repetitions back to back (the pair counters go round the pushbox ring
 * several times and the credits come back in batches), at 1..3 lanes that
 * meet (a user's grid) or not (half the repetitions: an _on_stream
 * kernel's blocks, whose last lane to finish counts), and with each PE
 * running its own number of lanes ("k 4"), on fresh teams nothing else
 * pushes on.  ll.sh runs only these, with the default
 * (larger) pushbox. */
#include "coll_test.h"
#include <pthread.h>
#include <unistd.h>
#include <stdbool.h>

int shoalx_coll_move_lane(int which, shmem_team_t team, void *dest, const void *source, size_t bytes, int root,
                          int lane, int nlanes);
int shoalx_coll_reduce_lane(int which, shmem_team_t team, void *dest, const void *source, size_t count,
                            const char *type, const char *op, int lane, int nlanes);
size_t shoalx_coll_ll_capacity(shmem_team_t team, size_t *one_slot);
int shoalx_coll_ll_lane(int which, shmem_team_t team, void *dest, const void *source, size_t count, const char *type,
                        const char *op, int root, int lane, int nlanes);
int shoalx_coll_stage_lane(int which, shmem_team_t team, void *dest, const void *source, size_t bytes, void *stage,
                           size_t stage_bytes, int lane, int nlanes);

#define MAX_LANES 3
#define MAX_BYTES 70001
/* Through the public calls: a size at which the library picks the push
 * (collectives/push.h: SHOAL_PUSH_CPU_MIN_BYTES, SHOAL_PUSH_BCAST_MIN_BYTES). */
#define BIG_BYTES ((512u << 10) + 3)
static const size_t lane_sizes[] = {1, 15, 16, 33, 4099, MAX_BYTES};
#define N_LANE_SIZES (sizeof lane_sizes / sizeof lane_sizes[0])
static const char *const which_name[3] = {"broadcast", "fcollect", "alltoall"};

/* Symmetric buffers: room for a whole team's blocks plus a misaligning offset. */
static unsigned char *src_buf, *dst_buf;
static size_t buf_bytes;
/* The staged push's buffer (its count, then two halves of a slot per
 * member), zeroed before each pass: a team's first call finds 0. */
static unsigned char *stage_buf;
static size_t stage_bytes;
static int errors;

#define CHECK(cond, ...) do { if (!(cond)) { if (errors++ < 10) { \
  fprintf(stderr, "PE %d: ", shmem_my_pe()); fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } } while (0)

static unsigned char byte_of(int pe, size_t i, unsigned salt)
{
  return (unsigned char)(shoal_test_val(pe, i / 8, salt) >> (8 * (i % 8)));
}

struct run {
  shmem_team_t team;
  const char *tname;
  int which, k, reps, n;   /* n: team size; k: the pass's lane count (names its data) */
  int lanes;               /* lanes this PE runs: k, or its own (mixed_lanes) */
  bool ll;                 /* the LL form (collectives/ll.h) */
  bool staged;             /* the staged push (collectives/push.h: shoal_push_staged) */
  size_t bytes;
  pthread_barrier_t bar;
};

/* What every repetition uses, the same on every PE. */
static size_t rep_offset(int rep) { return (size_t)(rep % 3) * 5; }   /* 0, 5, 10: misaligned */
static int rep_root(int rep, int n) { return rep % n; }
static bool rep_in_place(int which, int rep) { return which == 0 && rep % 2 == 1; }
/* LL's words go by index, whoever sends them, so the members need not run
 * the same number of lanes: when set, this PE runs this many lanes
 * whatever the pass's k (the LL teams' mixed pass). */
static int mixed_lanes;

/* The lanes of a PE meet at entry and exit (a kernel's grid) on reps 0, 1,
 * 4, 5, ...; on the others they meet only the peers (an _on_stream
 * kernel's grid).  For the movers and the reductions alike. */
static bool rep_local(int rep) { return (rep / 2) % 2 == 0; }

/* Lane 0 (thread 0) prepares and checks; every lane runs the collective. */
static void prepare(struct run *r, int rep)
{
  int n = shmem_team_n_pes(r->team), me = shmem_team_my_pe(r->team), wme = shmem_my_pe();
  unsigned salt = (unsigned)(rep * 7 + r->which * 131 + r->k * 977);
  size_t off = rep_offset(rep), b = r->bytes;
  unsigned char *s = src_buf + off, *d = dst_buf + off;
  size_t span = (r->which == 0 ? b : b * (size_t)n) + off + 16;   /* what the check reads */
  shoal_test_poison(dst_buf, span);
  shoal_test_poison(src_buf, span);
  size_t sbytes = r->which == 2 ? b * (size_t)n : b;
  for (size_t i = 0; i < sbytes; i++) s[i] = byte_of(wme, i, salt);
  (void)d;
  (void)me;
}

static void check(struct run *r, int rep)
{
  int n = shmem_team_n_pes(r->team), me = shmem_team_my_pe(r->team);
  unsigned salt = (unsigned)(rep * 7 + r->which * 131 + r->k * 977);
  size_t off = rep_offset(rep), b = r->bytes;
  const unsigned char *d = (rep_in_place(r->which, rep) ? src_buf : dst_buf) + off;
  size_t dbytes = r->which == 0 ? b : b * (size_t)n;
  int bad = 0;
  for (size_t i = 0; i < dbytes && bad < 3; i++) {
    unsigned char want;
    if (r->which == 0) want = byte_of(wpe(r->team, rep_root(rep, n)), i, salt);
    else if (r->which == 1) want = byte_of(wpe(r->team, (int)(i / b)), i % b, salt);
    else want = byte_of(wpe(r->team, (int)(i / b)), (size_t)me * b + i % b, salt);
    if (d[i] != want) {
      bad++;
      CHECK(0, "%s %s k %d bytes %zu rep %d: byte %zu is %#x, not %#x", which_name[r->which], r->tname, r->k, b,
            rep, i, d[i], want);
    }
  }
  const unsigned char *base = rep_in_place(r->which, rep) ? src_buf : dst_buf;
  for (size_t i = 0; i < off; i++) CHECK(base[i] == POISON_BYTE, "%s wrote before dest", which_name[r->which]);
  CHECK(base[off + dbytes] == POISON_BYTE, "%s %s k %d bytes %zu rep %d: wrote past the end",
        which_name[r->which], r->tname, r->k, b, rep);
}

/* The public calls at BIG_BYTES (one lane, the library's own scope). */
static void run_api(shmem_team_t team, const char *tname)
{
  struct run r;
  memset(&r, 0, sizeof r);
  r.team = team;
  r.tname = tname;
  r.k = 1;
  r.n = shmem_team_n_pes(team);
  r.bytes = BIG_BYTES;
  for (r.which = 0; r.which < 3; r.which++)
    for (int rep = 0; rep < 4; rep++) {
      prepare(&r, rep);
      shmem_team_sync(team);
      size_t off = rep_offset(rep);
      unsigned char *s = src_buf + off, *d = (rep_in_place(r.which, rep) ? src_buf : dst_buf) + off;
      int rc = r.which == 0 ? shmem_broadcastmem(team, d, s, r.bytes, rep_root(rep, r.n))
               : r.which == 1 ? shmem_fcollectmem(team, d, s, r.bytes) : shmem_alltoallmem(team, d, s, r.bytes);
      CHECK(rc == 0, "%s rc %d", which_name[r.which], rc);
      check(&r, rep);
      shmem_team_sync(team);
    }
}

struct lane_arg {
  struct run *r;
  int lane;
};

/* Now and then one PE joins an LL call late, so the others run ahead of
 * it: LL's halves must hold while a member is a call behind (ll.h's
 * protocol lets nobody get further ahead).  LL calls only: where every
 * PE's lanes are threads spinning on two cores, a sleeping member costs
 * the others far more than its 300 us (lanes.sh 12 -> 30 s with it on
 * every call, and past its 300 s limit under ASan). */
static void slow_member(int rep)
{
  if (rep % 5 == 2 && shmem_my_pe() == (rep / 5) % shmem_n_pes()) usleep(300);
}

static void *lane_main(void *p)
{
  struct lane_arg *a = p;
  struct run *r = a->r;
  int n = r->n;
  for (int rep = 0; rep < r->reps; rep++) {
    if (a->lane == 0) prepare(r, rep);
    if (a->lane == 0 && r->ll) slow_member(rep);
    pthread_barrier_wait(&r->bar);
    size_t off = rep_offset(rep);
    unsigned char *s = src_buf + off, *d = (rep_in_place(r->which, rep) ? src_buf : dst_buf) + off;
    /* lanes that do not meet (an _on_stream kernel's blocks): the
     * barriers around the call stand for the kernels' boundaries */
    int nl = rep_local(rep) ? r->lanes : -r->lanes;
    int rc = r->ll       ? shoalx_coll_ll_lane(r->which, r->team, d, s, r->bytes, NULL, NULL, rep_root(rep, n), a->lane, nl)
             : r->staged ? shoalx_coll_stage_lane(r->which, r->team, d, s, r->bytes, stage_buf, stage_bytes, a->lane, nl)
                         : shoalx_coll_move_lane(r->which, r->team, d, s, r->bytes, rep_root(rep, n), a->lane, nl);
    CHECK(rc == 0, "rc %d", rc);
    pthread_barrier_wait(&r->bar);
    if (a->lane == 0) check(r, rep);
  }
  return NULL;
}

/* The lane push stores straight into the members' memory: a team with a
 * member behind libfabric (SHOAL_PES_PER_NODE, CI's extra passes) runs
 * only the public calls, which pick another algorithm there. */
static bool team_mapped(shmem_team_t team)
{
  for (int i = 0; i < shmem_team_n_pes(team); i++)
    if (!shmem_ptr(src_buf, shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD))) return false;
  return true;
}

static void run_lanes(shmem_team_t team, const char *tname, int which, int k, size_t bytes, int reps, bool ll,
                      bool staged)
{
  struct run r;
  memset(&r, 0, sizeof r);
  r.ll = ll;
  r.staged = staged;
  if (staged) {   /* nobody writes it any more: every member's last call met mine */
    memset(stage_buf, 0, stage_bytes);
    shmem_team_sync(team);
  }
  r.team = team;
  r.tname = tname;
  r.which = which;
  r.k = k;
  r.lanes = ll && mixed_lanes ? mixed_lanes : k;
  r.reps = reps;
  r.n = shmem_team_n_pes(team);
  r.bytes = bytes;
  pthread_barrier_init(&r.bar, NULL, (unsigned)r.lanes);
  pthread_t th[MAX_LANES];
  struct lane_arg args[MAX_LANES];
  for (int b = 0; b < r.lanes; b++) {
    args[b].r = &r;
    args[b].lane = b;
    if (b > 0) ck_assert_int_eq(pthread_create(&th[b], NULL, lane_main, &args[b]), 0);
  }
  lane_main(&args[0]);
  for (int b = 1; b < r.lanes; b++) pthread_join(th[b], NULL);
  pthread_barrier_destroy(&r.bar);
}

/* ---- reductions at k lanes ----------------------------------------------- */
/* which 4: the ring; 5: LL (an all-reduce, in place too); 6: the LL
 * reduce-scatter (shoalx_coll_ll_lane's which 4) */
static const char *const rwhich_name[7] = {"pull", "staged", "twoshot", "reduce_scatter", "ring", "ll", "ll_scatter"};
/* Types and operators: integers wrap, floats hold small integers (exact in
 * any order), min/max any value. */
enum { RC_LONG_SUM, RC_UINT_XOR, RC_DOUBLE_MAX, RC_FLOAT_SUM, RC_SHORT_MIN, RC_UCHAR_PROD, N_RCASES };
static const struct { const char *type, *op; size_t es; } rcases[N_RCASES] = {
  {"long", "sum", sizeof(long)}, {"uint", "xor", sizeof(unsigned)}, {"double", "max", sizeof(double)},
  {"float", "sum", sizeof(float)}, {"short", "min", sizeof(short)}, {"uchar", "prod", 1},
};
/* Elements: odd, a 16-byte tail, one lane's share empty, many chunks. */
static const size_t rsizes[] = {1, 3, 17, 1001, 20011};
#define N_RSIZES (sizeof rsizes / sizeof rsizes[0])
#define MAX_RELEMS 20011

static void rval(int c, int pe, size_t i, unsigned salt, void *out)
{
  uint64_t v = shoal_test_val(pe, i, salt);
  switch (c) {
  case RC_LONG_SUM: { long x = (long)v; memcpy(out, &x, sizeof x); break; }
  case RC_UINT_XOR: { unsigned x = (unsigned)v; memcpy(out, &x, sizeof x); break; }
  case RC_DOUBLE_MAX: { double x = (double)(int64_t)v / 7.0; memcpy(out, &x, sizeof x); break; }
  case RC_FLOAT_SUM: { float x = (float)((int)(v % 2001) - 1000); memcpy(out, &x, sizeof x); break; }
  case RC_SHORT_MIN: { short x = (short)v; memcpy(out, &x, sizeof x); break; }
  default: { unsigned char x = (unsigned char)(v | 1); memcpy(out, &x, 1); break; }
  }
}
static void rcombine(int c, void *acc, const void *in)
{
  switch (c) {
  case RC_LONG_SUM: { unsigned long a, b; memcpy(&a, acc, 8); memcpy(&b, in, 8); a += b; memcpy(acc, &a, 8); break; }
  case RC_UINT_XOR: { unsigned a, b; memcpy(&a, acc, 4); memcpy(&b, in, 4); a ^= b; memcpy(acc, &a, 4); break; }
  case RC_DOUBLE_MAX: { double a, b; memcpy(&a, acc, 8); memcpy(&b, in, 8); if (b > a) memcpy(acc, &b, 8); break; }
  case RC_FLOAT_SUM: { float a, b; memcpy(&a, acc, 4); memcpy(&b, in, 4); a += b; memcpy(acc, &a, 4); break; }
  case RC_SHORT_MIN: { short a, b; memcpy(&a, acc, 2); memcpy(&b, in, 2); if (b < a) memcpy(acc, &b, 2); break; }
  default: { unsigned char a = *(unsigned char *)acc, b = *(const unsigned char *)in; *(unsigned char *)acc = (unsigned char)(a * b); break; }
  }
}

struct rrun {
  shmem_team_t team;
  const char *tname;
  int which, c, k, reps, n;   /* k: the pass's lane count (names its data) */
  int lanes;                  /* lanes this PE runs (struct run's) */
  size_t count;
  pthread_barrier_t bar;
};

static unsigned rsalt(const struct rrun *r, int rep) { return (unsigned)(rep * 11 + r->which * 257 + r->c * 31 + r->k * 7919); }
static bool r_in_place(const struct rrun *r, int rep)
{
  return (r->which == 1 || r->which == 2 || r->which == 4 || r->which == 5) && rep % 2 == 1;
}
/* 0, 1 or 2 elements in: 16-byte misaligned for every type but uchar at 0 */
static size_t r_offset(const struct rrun *r, int rep) { return (size_t)(rep % 3) * rcases[r->c].es; }

/* Local reps (rep_local): each lane writes its own interleaved part of
 * the source just before the call, so only the call's own local meeting
 * orders those writes before another lane reads them (a lane that stages
 * its share first reads elements not yet written).  The other reps: lane
 * 0 writes all of the source before a barrier. */

static bool r_scatter(const struct rrun *r) { return r->which == 3 || r->which == 6; }
/* The LL reduce-scatter reads its source only locally: odd reps take it
 * from private memory. */
static unsigned char *priv_buf;
static unsigned char *r_src(const struct rrun *r, int rep) { return r->which == 6 && rep % 2 ? priv_buf : src_buf; }

static void rpoison(struct rrun *r, int rep)
{
  size_t es = rcases[r->c].es, off = r_offset(r, rep);
  size_t selems = r_scatter(r) ? r->count * (size_t)r->n : r->count;
  shoal_test_poison(r_src(r, rep), (selems + 4) * es + off);
  shoal_test_poison(dst_buf, (selems + 4) * es + off);
}
/* Elements lane, lane + k, ... of the source. */
static void rfill(struct rrun *r, int rep, int lane, int k)
{
  size_t es = rcases[r->c].es, off = r_offset(r, rep);
  size_t selems = r_scatter(r) ? r->count * (size_t)r->n : r->count;
  unsigned char *src = r_src(r, rep);
  for (size_t i = (size_t)lane; i < selems; i += (size_t)k) rval(r->c, shmem_my_pe(), i, rsalt(r, rep), src + off + i * es);
}

static void rcheck(struct rrun *r, int rep)
{
  size_t es = rcases[r->c].es, off = r_offset(r, rep);
  int me = shmem_team_my_pe(r->team);
  const unsigned char *base = r_in_place(r, rep) ? src_buf : dst_buf, *d = base + off;
  unsigned char want[16], x[16];
  int bad = 0;
  for (size_t i = 0; i < r->count && bad < 3; i++) {
    size_t at = r_scatter(r) ? (size_t)me * r->count + i : i;
    for (int q = 0; q < r->n; q++) {
      rval(r->c, wpe(r->team, q), at, rsalt(r, rep), q ? x : want);
      if (q) rcombine(r->c, want, x);
    }
    if (memcmp(d + i * es, want, es)) {
      bad++;
      CHECK(0, "%s %s_%s %s k %d count %zu rep %d%s: element %zu wrong", rwhich_name[r->which], rcases[r->c].type,
            rcases[r->c].op, r->tname, r->k, r->count, rep, r_in_place(r, rep) ? " in place" : "", i);
    }
  }
  for (size_t i = 0; i < off; i++) CHECK(base[i] == POISON_BYTE, "%s wrote before dest", rwhich_name[r->which]);
  if (!r_in_place(r, rep))
    CHECK(d[r->count * es] == POISON_BYTE, "%s %s_%s k %d count %zu rep %d: wrote past the end",
          rwhich_name[r->which], rcases[r->c].type, rcases[r->c].op, r->k, r->count, rep);
}

struct rlane_arg {
  struct rrun *r;
  int lane;
};

static void *rlane_main(void *p)
{
  struct rlane_arg *a = p;
  struct rrun *r = a->r;
  size_t es = rcases[r->c].es;
  for (int rep = 0; rep < r->reps; rep++) {
    /* LL's lanes that do not meet: an _on_stream kernel's blocks, the
     * barriers around the call standing for the kernels' boundaries */
    bool ll = r->which == 5 || r->which == 6, local = rep_local(rep);
    if (a->lane == 0) rpoison(r, rep);
    if (!local && a->lane == 0) rfill(r, rep, 0, 1);
    if (a->lane == 0 && ll) slow_member(rep);
    pthread_barrier_wait(&r->bar);
    if (local) rfill(r, rep, a->lane, r->lanes);   /* no barrier: the call's local meeting orders it */
    size_t off = r_offset(r, rep);
    unsigned char *s = r_src(r, rep) + off, *d = (r_in_place(r, rep) ? src_buf : dst_buf) + off;
    int rc = ll ? shoalx_coll_ll_lane(r->which == 6 ? 4 : 3, r->team, d, s, r->count, rcases[r->c].type,
                                      rcases[r->c].op, 0, a->lane, local ? r->lanes : -r->lanes)
                           : shoalx_coll_reduce_lane(r->which, r->team, d, s, r->count, rcases[r->c].type,
                                                     rcases[r->c].op, a->lane, local ? r->lanes : -r->lanes);
    CHECK(rc == 0, "rc %d", rc);
    pthread_barrier_wait(&r->bar);
    if (a->lane == 0) rcheck(r, rep);
    (void)es;
  }
  return NULL;
}

static void run_rlanes(shmem_team_t team, const char *tname, int which, int c, int k, size_t count, int reps)
{
  struct rrun r;
  memset(&r, 0, sizeof r);
  r.team = team;
  r.tname = tname;
  r.which = which;
  r.c = c;
  r.k = k;
  r.lanes = (which == 5 || which == 6) && mixed_lanes ? mixed_lanes : k;
  r.reps = reps;
  r.n = shmem_team_n_pes(team);
  r.count = count;
  pthread_barrier_init(&r.bar, NULL, (unsigned)r.lanes);
  pthread_t th[MAX_LANES];
  struct rlane_arg args[MAX_LANES];
  for (int b = 0; b < r.lanes; b++) {
    args[b].r = &r;
    args[b].lane = b;
    if (b > 0) ck_assert_int_eq(pthread_create(&th[b], NULL, rlane_main, &args[b]), 0);
  }
  rlane_main(&args[0]);
  for (int b = 1; b < r.lanes; b++) pthread_join(th[b], NULL);
  pthread_barrier_destroy(&r.bar);
}

/* Every algorithm at every size with one case, every case at two sizes. */
static void run_reductions(shmem_team_t team, const char *tname, int k)
{
  for (int which = 0; which < 5; which++)
    for (int c = 0; c < N_RCASES; c++)
      for (size_t si = 0; si < N_RSIZES; si++) {
        size_t count = rsizes[si];
        if ((size_t)c != ((size_t)which + si) % N_RCASES && si != 1 && si != 3) continue;
        run_rlanes(team, tname, which, c, k, count, count >= 20011 ? 6 : count > 17 ? 24 : 120);
      }
}

/* ---- LL at k lanes ------------------------------------------------------------ */
/* Bytes per pair: one word, odd word counts, one slot and a word more
 * (two slots of the ring), up to the team's capacity (half the ring). */
static void run_ll(shmem_team_t team, const char *tname, int k)
{
  size_t one;
  size_t cap = shoalx_coll_ll_capacity(team, &one) & ~(size_t)3;
  one &= ~(size_t)3;
  ck_assert_uint_gt(cap, 0);
  /* calls of several slots where the ring is deep enough (ll.sh's default
   * scratch; lanes.sh's small one leaves a ring of one slot) */
  ck_assert_uint_ge(cap, one);
  const size_t bsizes[] = {4, 12, 148, one, one + 4, ((cap / 3) & ~(size_t)3) + 4, cap};
  for (int which = 0; which < 3; which++)
    for (size_t si = 0; si < sizeof bsizes / sizeof bsizes[0]; si++)
      if (bsizes[si] <= cap && (si == 0 || bsizes[si] != bsizes[si - 1]))
        run_lanes(team, tname, which, k, bsizes[si], bsizes[si] == cap ? 24 : 40, true, false);
  /* the 4- and 8-byte cases: long sum, uint xor, double max, float sum;
   * all-reduce (5) and reduce-scatter (6: count per member's block) */
  const int cases[] = {RC_LONG_SUM, RC_UINT_XOR, RC_DOUBLE_MAX, RC_FLOAT_SUM};
  for (int which = 5; which <= 6; which++)
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
      size_t es = rcases[cases[ci]].es, most = cap / es;
      const size_t counts[] = {1, 3, 17, one / es, one / es + 1, most / 2 + 1, most};
      for (size_t si = 0; si < sizeof counts / sizeof counts[0]; si++)
        if (counts[si] <= most && (si == 0 || counts[si] > counts[si - 1]))
          run_rlanes(team, tname, which, cases[ci], k, counts[si], counts[si] == most ? 24 : 40);
    }
}

/* Fresh teams (nothing but LL pushes on their pushbox, collectives/ll.h):
 * every PE, and PEs 0, 2, ...; 1..3 lanes; then each PE its own count
 * (1 + its number mod 3: an _on_stream kernel sized by what each GPU holds
 * resident, gpu_stream.h's shoal_gpu_ll_blocks). */
static void run_ll_teams(void)
{
  int n = shmem_n_pes();
  shmem_team_t t[2];
  const char *names[2] = {"ll-all", "ll-even"};
  ck_assert_int_eq(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, NULL, 0, &t[0]), 0);
  ck_assert_int_eq(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, NULL, 0, &t[1]), 0);
  for (int k = 1; k <= MAX_LANES; k++) {
    if (k > 1 && n * k > 8) continue;   /* 2-core CI: at most 4 spinning threads per core */
    for (int i = 0; i < 2; i++)
      if (t[i] != SHMEM_TEAM_INVALID && team_mapped(t[i])) run_ll(t[i], names[i], k);
    shmem_barrier_all();
  }
  if (n > 1) {   /* at most 1 + 2 + 3 + 1 threads at 4 PEs */
    mixed_lanes = 1 + shmem_my_pe() % MAX_LANES;
    for (int i = 0; i < 2; i++)
      if (t[i] != SHMEM_TEAM_INVALID && team_mapped(t[i])) run_ll(t[i], names[i], MAX_LANES + 1);
    mixed_lanes = 0;
    shmem_barrier_all();
  }
  for (int i = 0; i < 2; i++) shmem_team_destroy(t[i]);
}

START_TEST(test_lanes)
{
  teams_make();
  int n = shmem_n_pes();
  buf_bytes = (size_t)BIG_BYTES * (size_t)n + 64;
  if (buf_bytes < ((size_t)MAX_RELEMS * (size_t)n + 8) * 8) buf_bytes = ((size_t)MAX_RELEMS * (size_t)n + 8) * 8;
  src_buf = shmem_malloc(buf_bytes);
  dst_buf = shmem_malloc(buf_bytes);
  stage_bytes = 64 + 2 * (size_t)n * ((MAX_BYTES + 15) & ~(size_t)15);
  stage_buf = shmem_malloc(stage_bytes);
  ck_assert_ptr_nonnull(stage_buf);
  priv_buf = malloc(buf_bytes);
  ck_assert_ptr_nonnull(priv_buf);
  ck_assert_ptr_nonnull(src_buf);
  ck_assert_ptr_nonnull(dst_buf);
  const int tlist[] = {T_WORLD, T_EVEN, T_STRIDE3};
  run_ll_teams();
  const char *only_ll = getenv("SHOAL_TEST_LANES_ONLY_LL");   /* ll.sh */
  for (int k = 1; k <= MAX_LANES && !(only_ll && *only_ll == '1'); k++)
    for (size_t ti = 0; ti < sizeof tlist / sizeof tlist[0]; ti++) {
      if (k > 1 && n * k > 8) continue;   /* 2-core CI: at most 4 spinning threads per core */
      shmem_team_t t = teams[tlist[ti]];
      if (t != SHMEM_TEAM_INVALID && team_mapped(t))
        for (int which = 0; which < 3; which++)
          for (size_t si = 0; si < N_LANE_SIZES; si++) {
            size_t b = lane_sizes[si];
            run_lanes(t, team_name[tlist[ti]], which, k, b, b > 4099 ? 12 : b == 33 ? 120 : 24, false, false);
            /* the staged push: fcollect and alltoall, 40+ calls back to
             * back (the halves alternate), lanes that meet or not */
            if (which > 0) run_lanes(t, team_name[tlist[ti]], which, k, b, b > 4099 ? 16 : 40, false, true);
          }
      if (t != SHMEM_TEAM_INVALID && team_mapped(t)) run_reductions(t, team_name[tlist[ti]], k);
      if (t != SHMEM_TEAM_INVALID && k == 1) run_api(t, team_name[tlist[ti]]);
      shmem_barrier_all();
    }
  shmem_free(src_buf);
  shmem_free(dst_buf);
  shmem_free(stage_buf);
  free(priv_buf);
  teams_free();
  ck_assert_int_eq(errors, 0);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("lanes");
  TCase *tc = tcase_create("lanes");
  tcase_set_timeout(tc, 0);
  tcase_add_test(tc, test_lanes);
  suite_add_tcase(s, tc);
  return shoal_test_run(s);
}
