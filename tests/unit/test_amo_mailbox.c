/* The mailbox of the kernel that applies AMOs to GPU memory
 * (gpu/amo_mailbox.h), driven by CPU threads: a host thread posts requests
 * one at a time with fresh random fields, a "kernel" thread takes each and
 * answers with a value computed from every field, so a request taken torn
 * or stale, or an answer read torn or stale, shows as a wrong answer.  The
 * kernel thread also leaves when idle (as the real one does after
 * SHOAL_GPU_AMO_LINGER) and the host starts another at the next request,
 * as gpu_lib.cu's amo_served does; the tags run across 2^32.
 * Single-threaded cases pin down each rule: a request missing any one word
 * is not taken, an answer is taken only with both words of its tag.
 * Checked to fail when broken on purpose: take ignoring one word's tag,
 * answered ignoring the high word's tag. */
#include "../../gpu/amo_mailbox.h"

#include <check.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* device/proxy_queue.h's waits look at the watchdog; not under test. */
void shoal_wait_check(shoal_backoff *b) { (void)b; }
unsigned shoal_spin_limit = 0;
void shoal_progress_hook(void) {}

static shoal_amo_box box;

static uint64_t rnd64(void) { return (uint64_t)random() << 42 ^ (uint64_t)random() << 21 ^ (uint64_t)random(); }

static shoal_amo_req random_req(void)
{
  shoal_amo_req q = {(uint32_t)(random() & 255), (uint32_t)(random() & 255), rnd64(), rnd64(), rnd64()};
  return q;
}

/* What the kernel answers: every bit of every field counts. */
static uint64_t answer_for(const shoal_amo_req *q)
{
  uint64_t h = q->op * 0x9e3779b97f4a7c15ull ^ q->dt * 0xc2b2ae3d27d4eb4full;
  h = (h ^ q->target) * 0xff51afd7ed558ccdull;
  h = (h ^ q->a) * 0xc4ceb9fe1a85ec53ull;
  return (h ^ q->b) * 0x2545f4914f6cdd1dull ^ (h >> 29);
}

/* ---- a host and a kernel thread ---------------------------------------- */

struct server {
  uint32_t next;          /* the first request it serves */
  int idle_spins;         /* it leaves after this many empty polls (its linger) */
  int running;            /* 1 while it runs (the stream query) */
  pthread_t th;
};

static void *serve(void *arg)
{
  struct server *s = arg;
  for (int idle = 0; idle < s->idle_spins && !__atomic_load_n(&box.quit, __ATOMIC_ACQUIRE);) {
    shoal_amo_req q;
    if (shoal_amo_box_take(&box, s->next, &q)) {
      shoal_amo_box_reply(&box, s->next, answer_for(&q));
      s->next++;
      idle = 0;
    } else {
      idle++;
      if (idle % 64 == 0) sched_yield();
    }
  }
  __atomic_store_n(&s->running, 0, __ATOMIC_RELEASE);
  return NULL;
}

static void launch(struct server *s, uint32_t next)
{
  s->next = next;
  s->running = 1;
  ck_assert_int_eq(pthread_create(&s->th, NULL, serve, s), 0);
}

static double now_s(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* n_req requests from tag n0 + 1 on; the server leaves after idle_spins
 * empty polls; the host pauses now and then so that it does.  Each round
 * trip is two threads handing the CPU to each other: on a loaded 2-core
 * machine that can take a time slice, so the run stops posting after
 * RUN_BUDGET_S once it has done RUN_MIN_REQ requests (every one checked). */
#define RUN_BUDGET_S 20.0
#define RUN_MIN_REQ 2000
static void run(uint32_t n0, int n_req, int idle_spins, int pause_every)
{
  double t0 = now_s();
  shoal_amo_box_reset(&box, n0);
  struct server s = {0, idle_spins, 0, 0};
  uint32_t seq = n0;
  int launches = 1;
  launch(&s, seq + 1);
  for (int i = 0; i < n_req; i++) {
    if (i >= RUN_MIN_REQ && i % 256 == 0 && now_s() - t0 > RUN_BUDGET_S) break;
    uint32_t n = seq + 1;
    shoal_amo_req q = random_req();
    shoal_amo_box_post(&box, n, &q);
    uint64_t r;
    for (unsigned k = 1; !shoal_amo_box_answered(&box, n, &r); k++) {
      if (k % 64) continue;
      if (!__atomic_load_n(&s.running, __ATOMIC_ACQUIRE)) {   /* gone idle: launch again */
        pthread_join(s.th, NULL);
        if (shoal_amo_box_answered(&box, n, &r)) break;
        launch(&s, seq + 1);
        launches++;
      }
      sched_yield();
    }
    ck_assert_msg(r == answer_for(&q), "request %u (i %d): answer %#llx, want %#llx", n, i,
                  (unsigned long long)r, (unsigned long long)answer_for(&q));
    seq = n;
    if (pause_every && i % pause_every == pause_every - 1) {
      usleep(200);
      /* until the relaunch path has run, wait for the server to leave (up
       * to 0.2 s): 200 us was not always enough on a loaded machine */
      for (int w = 0; launches == 1 && w < 1000 && __atomic_load_n(&s.running, __ATOMIC_ACQUIRE); w++) usleep(200);
    }
  }
  __atomic_store_n(&box.quit, 1, __ATOMIC_RELEASE);
  pthread_join(s.th, NULL);
  if (pause_every) ck_assert_int_gt(launches, 1);   /* the relaunch path ran */
}

START_TEST(test_mailbox_threads)
{
  run(0, 100000, 1 << 30, 0);
}
END_TEST

START_TEST(test_mailbox_relaunch)
{
  run(7, 3000, 200, 5);
}
END_TEST

START_TEST(test_mailbox_wrap)
{
  run(0xffffff00u, 4000, 1 << 30, 0);   /* tags 0xffffff01 .. 0x00000ea0 */
  run(0xfffffff0u, 600, 200, 7);
}
END_TEST

/* ---- one rule at a time ------------------------------------------------- */

START_TEST(test_mailbox_rules)
{
  shoal_amo_box_reset(&box, 41);
  shoal_amo_req q = random_req(), got;
  uint64_t r;
  ck_assert(!shoal_amo_box_take(&box, 42, &got));   /* start state */
  ck_assert(!shoal_amo_box_answered(&box, 42, &r));
  /* Request 42 with any one word still of request 41: not taken. */
  shoal_amo_box_post(&box, 42, &q);
  shoal_amo_box posted = box;
  for (int i = 0; i < SHOAL_AMO_BOX_WORDS; i++) {
    box.req[i] = shoal_amo_box_word((uint32_t)box.req[i], 41);
    ck_assert_msg(!shoal_amo_box_take(&box, 42, &got), "taken without word %d", i);
    box = posted;
  }
  ck_assert(!shoal_amo_box_take(&box, 43, &got));   /* not a later request either */
  ck_assert(shoal_amo_box_take(&box, 42, &got));
  ck_assert_uint_eq(got.op, q.op);
  ck_assert_uint_eq(got.dt, q.dt);
  ck_assert_uint_eq(got.target, q.target);
  ck_assert_uint_eq(got.a, q.a);
  ck_assert_uint_eq(got.b, q.b);
  /* The answer: each half alone is not an answer. */
  uint64_t want = 0x0123456789abcdefull;
  shoal_amo_box_reply(&box, 42, want);
  shoal_amo_box answered = box;
  box.ans[0] = shoal_amo_box_word((uint32_t)box.ans[0], 41);
  ck_assert(!shoal_amo_box_answered(&box, 42, &r));
  box = answered;
  box.ans[1] = shoal_amo_box_word((uint32_t)box.ans[1], 41);
  ck_assert(!shoal_amo_box_answered(&box, 42, &r));
  box = answered;
  ck_assert(!shoal_amo_box_answered(&box, 43, &r));
  ck_assert(shoal_amo_box_answered(&box, 42, &r));
  ck_assert_uint_eq(r, want);
  /* Request 43 posted: request 42 is no longer there to take. */
  shoal_amo_box_post(&box, 43, &q);
  ck_assert(!shoal_amo_box_take(&box, 42, &got));
}
END_TEST

int main(void)
{
  srandom((unsigned)time(NULL));
  Suite *s = suite_create("amo_mailbox");
  TCase *tc = tcase_create("mailbox");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_mailbox_rules);
  tcase_add_test(tc, test_mailbox_threads);
  tcase_add_test(tc, test_mailbox_relaunch);
  tcase_add_test(tc, test_mailbox_wrap);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
