/* The GPU proxy's command queue (device/proxy_queue.h), driven by CPU
 * threads: producers post from several threads, one consumer carries the
 * commands out in ticket order; the ring wraps many times.  (Checked to
 * fail when the consumer frees a fetching command's slot early.) */
#include "../../device/proxy_queue.h"

#include <check.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

/* The queue's waits take the library's watchdog look every few thousand
 * spins; the watchdog (runtime/watchdog.c) is not under test here. */
void shoal_wait_check(shoal_backoff *b) { (void)b; }

unsigned shoal_spin_limit = 0;
void shoal_progress_hook(void) {}

/* More producers than slots, so a slot is wanted again while its last
 * owner may still be reading its result. */
enum { CAP = 4, PRODUCERS = 12, PER_PRODUCER = 2000 };

static shoal_pq q;
static uint64_t head, done, quiet_mark;
static shoal_pq_cmd slots[CAP];
static uint64_t seen[PRODUCERS];     /* consumer: last sequence number per producer */
static int order_errors;
static uint64_t salt;

static void make_queue(void)
{
  q = (shoal_pq){&head, slots, &done, &quiet_mark, CAP};
  for (int i = 0; i < CAP; i++) slots[i].seq = 12345;   /* poison */
  head = done = quiet_mark = 77;
  shoal_pq_reset(&q);
  salt = (uint64_t)random() << 20 | 1;
}

/* A producer posts PER_PRODUCER commands; odd ones "fetch" and check the
 * result the consumer computed from their operands. */
static void *producer(void *arg)
{
  uint32_t id = (uint32_t)(uintptr_t)arg;
  intptr_t bad = 0;
  for (uint64_t k = 1; k <= PER_PRODUCER; k++) {
    shoal_pq_cmd c = {0};
    c.op = (k & 1) ? SHOAL_PQ_AMO : SHOAL_PQ_PUT;
    c.pe = id;
    c.n = k;
    c.operand = k * salt + id;
    uint64_t t = shoal_pq_post(&q, &c);
    if (k & 1) {
      /* Sometimes read the result late: the slot must still be ours. */
      if (k % 5 == 1) { shoal_pq_wait(&q, t); usleep(20); }
      uint64_t r = shoal_pq_take_result(&q, t);
      if (r != ~c.operand) bad++;
    }
  }
  return (void *)bad;
}

static void *consumer(void *arg)
{
  (void)arg;
  uint64_t total = (uint64_t)PRODUCERS * PER_PRODUCER;
  shoal_backoff b = SHOAL_BACKOFF_INIT;
  for (uint64_t t = 0; t < total;) {
    shoal_pq_cmd c;
    if (!shoal_pq_peek(&q, t, &c)) { shoal_backoff_wait(&b); continue; }
    /* Each producer's commands arrive in the order it posted them. */
    if (c.pe >= PRODUCERS || c.n != seen[c.pe] + 1 || c.operand != c.n * salt + c.pe) order_errors++;
    seen[c.pe] = c.n;
    bool fetch = c.op == SHOAL_PQ_AMO;
    shoal_pq_complete(&q, t, fetch, ~c.operand);
    t++;
  }
  return NULL;
}

START_TEST(test_queue_threads_wrap)
{
  make_queue();
  for (int i = 0; i < PRODUCERS; i++) seen[i] = 0;
  order_errors = 0;
  pthread_t prod[PRODUCERS], cons;
  ck_assert_int_eq(pthread_create(&cons, NULL, consumer, NULL), 0);
  for (int i = 0; i < PRODUCERS; i++)
    ck_assert_int_eq(pthread_create(&prod[i], NULL, producer, (void *)(uintptr_t)i), 0);
  for (int i = 0; i < PRODUCERS; i++) {
    void *bad;
    pthread_join(prod[i], &bad);
    ck_assert_msg(bad == NULL, "producer %d read %ld wrong results", i, (long)(intptr_t)bad);
  }
  pthread_join(cons, NULL);
  ck_assert_int_eq(order_errors, 0);
  for (int i = 0; i < PRODUCERS; i++) ck_assert_uint_eq(seen[i], PER_PRODUCER);
  ck_assert_uint_eq(head, (uint64_t)PRODUCERS * PER_PRODUCER);
  ck_assert_uint_eq(done, head);
  /* Every slot is free for the ticket after the last. */
  for (uint64_t t = head; t < head + CAP; t++) ck_assert_uint_eq(slots[t & (CAP - 1)].seq, t);
}
END_TEST

START_TEST(test_queue_single)
{
  make_queue();
  shoal_pq_cmd c = {0}, got;
  ck_assert(!shoal_pq_peek(&q, 0, &got));   /* empty */
  c.op = SHOAL_PQ_GET;
  c.dest = salt;
  c.src = salt + 1;
  c.n = 3;
  uint64_t t = shoal_pq_post(&q, &c);
  ck_assert_uint_eq(t, 0);
  ck_assert(!shoal_pq_is_done(&q, t));
  ck_assert(shoal_pq_peek(&q, 0, &got));
  ck_assert(!shoal_pq_peek(&q, 1, &got) || got.seq != 2);
  shoal_pq_peek(&q, 0, &got);
  ck_assert_uint_eq(got.op, SHOAL_PQ_GET);
  ck_assert_uint_eq(got.dest, salt);
  ck_assert_uint_eq(got.src, salt + 1);
  ck_assert_uint_eq(got.n, 3);
  shoal_pq_complete(&q, 0, false, 0);
  ck_assert(shoal_pq_is_done(&q, t));
  ck_assert_uint_eq(slots[0].seq, CAP);   /* free for ticket CAP */
  ck_assert(!shoal_pq_peek(&q, 1, &got));
}
END_TEST

int main(void)
{
  srandom((unsigned)time(NULL));
  Suite *s = suite_create("proxy_queue");
  TCase *tc = tcase_create("queue");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_queue_single);
  tcase_add_test(tc, test_queue_threads_wrap);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
