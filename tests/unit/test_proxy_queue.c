/* The GPU proxy's command queue (device/proxy_queue.h), driven by CPU
 * threads: producers post from several threads, one consumer carries the
 * commands out in ticket order, fetching commands get their results back
 * through the result entries; the ring (4 and 8 slots) wraps thousands of
 * times.  Single-threaded cases pin down each rule: a partly written
 * command or result is never taken, a result entry is not reused before
 * its reader took it, and producers post on done_seen without reading
 * done (done sits in a page that faults when read).
 * Checked to fail when broken on purpose: peek ignoring one word's tag,
 * the consumer not waiting for a result to be taken, post ignoring
 * done_seen (posting into a slot not yet consumed). */
#include "../../device/proxy_queue.h"

#include <check.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* The queue's waits take the library's watchdog look every few thousand
 * spins; the watchdog (runtime/watchdog.c) is not under test here. */
void shoal_wait_check(shoal_backoff *b) { (void)b; }

unsigned shoal_spin_limit = 0;
void shoal_progress_hook(void) {}

enum { MAX_CAP = 8, PRODUCERS = 12, PER_PRODUCER = 5000 };

static shoal_pq q;
static uint64_t head, done_seen, done_word, quiet_mark;
static shoal_pq_slot slots[MAX_CAP];
static shoal_pq_result results[MAX_CAP];
static uint64_t salt;

static void make_queue(uint64_t cap, uint64_t *done)
{
  q = (shoal_pq){&head, &done_seen, slots, results, done, &quiet_mark, cap};
  memset(slots, 0x5a, sizeof slots);     /* poison: reset must cover it all */
  memset(results, 0xa5, sizeof results);
  head = done_seen = quiet_mark = 77;
  *done = 77;
  shoal_pq_reset(&q);
  salt = (uint64_t)random() << 20 | 1;
}

/* What the consumer answers for ticket t: both halves depend on t, so a
 * producer that reads another ticket's result sees it. */
static uint64_t result_for(uint64_t t, uint64_t operand)
{
  return (operand * 0x9e3779b97f4a7c15ull) ^ (t << 17) ^ (t * 0x100000001ull);
}

/* ---- many threads ------------------------------------------------------- */

enum kind { K_PUT_INLINE, K_AMO_FETCH, K_AMO, K_GET_INLINE, K_PUT, K_QUIET, K_KINDS };

/* Producer id's k-th command, every field predictable by the consumer. */
static shoal_pq_cmd command_for(uint32_t id, uint64_t k)
{
  uint64_t h = (k * 0x2545f4914f6cdd1dull) ^ (id * 0x9e3779b97f4a7c15ull) ^ salt;
  static const uint32_t ops[K_KINDS] = {SHOAL_PQ_PUT_INLINE, SHOAL_PQ_AMO, SHOAL_PQ_AMO,
                                        SHOAL_PQ_GET_INLINE, SHOAL_PQ_PUT, SHOAL_PQ_QUIET};
  enum kind kind = (enum kind)((h >> 33) % K_KINDS);
  shoal_pq_cmd c;
  c.op = ops[kind];
  c.pe = id;
  c.amo_op = (uint32_t)(h >> 7);
  c.dtype = (uint32_t)(h >> 29) ^ id;
  c.dest = k | (uint64_t)id << 40 | (h & 0xff00000000000000ull);
  c.src = ~h;
  c.n = kind == K_AMO_FETCH ? 1 + (h & 0xffff0000ffffull) : kind == K_AMO ? 0 : h >> 3;
  c.operand = k * salt + id;
  c.compare = h ^ 0xdeadbeefcafef00dull;
  return c;
}

static uint64_t seen[PRODUCERS];       /* consumer: last k per producer */
static int field_errors, order_errors, bound_errors, overruns;
static unsigned long refused_untaken;  /* a fetching command waited for its entry */

static void *producer(void *arg)
{
  uint32_t id = (uint32_t)(uintptr_t)arg;
  intptr_t bad = 0;
  for (uint64_t k = 1; k <= PER_PRODUCER; k++) {
    shoal_pq_cmd c = command_for(id, k);
    uint64_t t = shoal_pq_post(&q, &c);
    if (shoal_pq_fetches(&c)) {
      /* Sometimes read the result late: later fetching commands of the
       * same entry must wait for it. */
      if (k % 7 == 3) usleep(50);
      else if (k % 7 == 5) shoal_pq_wait(&q, t);
      if (shoal_pq_take_result(&q, t) != result_for(t, c.operand)) bad++;
    } else if (c.op == SHOAL_PQ_PUT || c.op == SHOAL_PQ_QUIET) {
      shoal_pq_wait(&q, t);
      if (!shoal_pq_is_done(&q, t)) bad++;
    }
  }
  return (void *)bad;
}

/* How many words of slot t % cap carry ticket t's tag (later: a later
 * ticket's of the same slot). */
static int words_of(uint64_t t, bool later)
{
  const uint64_t *w = q.slots[t & (q.cap - 1)].w;
  int n = 0;
  for (int i = 0; i < SHOAL_PQ_WORDS; i++) {
    uint32_t ahead = shoal_pq_tag_of(shoal_load_relaxed(&w[i])) - shoal_pq_tag(t);
    n += later ? ahead && ahead < 0x80000000u && ahead % q.cap == 0 : ahead == 0;
  }
  return n;
}

static void *consumer(void *arg)
{
  (void)arg;
  uint64_t total = (uint64_t)PRODUCERS * PER_PRODUCER;
  shoal_backoff b = SHOAL_BACKOFF_INIT;
  for (uint64_t t = 0; t < total;) {
    shoal_pq_cmd c;
    if (shoal_load_relaxed(q.done_seen) > t) bound_errors++;   /* done is t now */
    if (!shoal_pq_peek(&q, t, &c)) {
      /* Posted in full, yet refused: its entry still holds a result. */
      if (words_of(t, false) == SHOAL_PQ_WORDS) refused_untaken++;
      /* A later ticket's words in the slot before t was taken. */
      if (words_of(t, true)) { overruns++; return NULL; }
      shoal_backoff_wait(&b);
      continue;
    }
    b.spins = 0;
    /* Each producer's commands arrive whole and in the order it posted them. */
    uint64_t k = c.dest & 0xffffffffffull;
    if (c.pe >= PRODUCERS) {
      field_errors++;
    } else {
      shoal_pq_cmd want = command_for(c.pe, k);
      if (memcmp(&c, &want, sizeof c) != 0) field_errors++;
      if (k != seen[c.pe] + 1) order_errors++;
      seen[c.pe] = k;
    }
    if (c.op == SHOAL_PQ_QUIET) shoal_store_release(q.quiet_mark, t + 1);
    shoal_pq_complete(&q, t, shoal_pq_fetches(&c), result_for(t, c.operand));
    t++;
  }
  return NULL;
}

START_TEST(test_queue_threads_wrap)
{
  uint64_t cap = (uint64_t)4 << _i;   /* 4, then 8 */
  make_queue(cap, &done_word);
  memset(seen, 0, sizeof seen);
  field_errors = order_errors = bound_errors = overruns = 0;
  refused_untaken = 0;
  pthread_t prod[PRODUCERS], cons;
  ck_assert_int_eq(pthread_create(&cons, NULL, consumer, NULL), 0);
  for (int i = 0; i < PRODUCERS; i++)
    ck_assert_int_eq(pthread_create(&prod[i], NULL, producer, (void *)(uintptr_t)i), 0);
  pthread_join(cons, NULL);
  ck_assert_msg(overruns == 0, "cap %lu: a slot was overwritten before the consumer took it", (unsigned long)cap);
  for (int i = 0; i < PRODUCERS; i++) {
    void *bad;
    pthread_join(prod[i], &bad);
    ck_assert_msg(bad == NULL, "cap %lu: producer %d read %ld wrong results", (unsigned long)cap, i,
                  (long)(intptr_t)bad);
  }
  ck_assert_int_eq(field_errors, 0);
  ck_assert_int_eq(order_errors, 0);
  ck_assert_int_eq(bound_errors, 0);
  for (int i = 0; i < PRODUCERS; i++) ck_assert_uint_eq(seen[i], PER_PRODUCER);
  ck_assert_uint_eq(head, (uint64_t)PRODUCERS * PER_PRODUCER);
  ck_assert_uint_eq(done_word, head);
  ck_assert_uint_le(done_seen, done_word);
  /* Late readers made the consumer wait for an entry at least once. */
  ck_assert_msg(refused_untaken > 0, "cap %lu: no fetching command ever waited for its entry",
                (unsigned long)cap);
  /* Every entry is handed back. */
  for (uint64_t t = head; t < head + cap; t++) ck_assert(shoal_pq_result_free(&q, t));
}
END_TEST

/* ---- one thread: each rule -------------------------------------------- */

static shoal_pq_cmd sample(uint32_t op, uint64_t x)
{
  shoal_pq_cmd c = {op, 3, 0x1234, 0x8765, salt + x, ~salt - x, op == SHOAL_PQ_AMO ? 1 : 5,
                    salt * x, 0xfedcba9876543210ull ^ x};
  return c;
}

static void consume(uint64_t t, uint64_t result)
{
  shoal_pq_cmd c;
  ck_assert(shoal_pq_peek(&q, t, &c));
  shoal_pq_complete(&q, t, shoal_pq_fetches(&c), result);
}

START_TEST(test_queue_single)
{
  make_queue(4, &done_word);
  shoal_pq_cmd got, c = sample(SHOAL_PQ_GET, 1);
  ck_assert(!shoal_pq_peek(&q, 0, &got));   /* empty */
  uint64_t t = shoal_pq_post(&q, &c);
  ck_assert_uint_eq(t, 0);
  ck_assert(!shoal_pq_is_done(&q, t));
  ck_assert(!shoal_pq_peek(&q, 1, &got));
  ck_assert(shoal_pq_peek(&q, 0, &got));
  ck_assert(memcmp(&got, &c, sizeof c) == 0);
  shoal_pq_complete(&q, 0, false, 0);
  ck_assert(shoal_pq_is_done(&q, t));
  ck_assert(!shoal_pq_peek(&q, 1, &got));
  ck_assert(!shoal_pq_peek(&q, 4, &got));   /* slot 0's old command is not ticket 4 */
}
END_TEST

/* A command is taken only when all 14 words carry its tag: any one word
 * missing (still the reset value, or the previous ticket's) keeps it out. */
START_TEST(test_queue_partial_command)
{
  make_queue(4, &done_word);
  for (uint64_t t = 0; t < 4; t++) {   /* slot 0 holds ticket 0 afterwards */
    shoal_pq_cmd c = sample(SHOAL_PQ_PUT_INLINE, t);
    shoal_pq_post(&q, &c);
    consume(t, 0);
  }
  for (int gen = 0; gen < 2; gen++) {
    uint64_t t = gen ? 8 : 4;
    shoal_pq_cmd c = sample(SHOAL_PQ_PUT_INLINE, t), got;
    uint64_t w[SHOAL_PQ_WORDS], old[SHOAL_PQ_WORDS];
    shoal_pq_encode(&c, shoal_pq_tag(t), w);
    memcpy(old, slots[0].w, sizeof old);
    for (int miss = 0; miss < SHOAL_PQ_WORDS; miss++) {
      for (int i = 0; i < SHOAL_PQ_WORDS; i++) slots[0].w[i] = i == miss ? old[i] : w[i];
      ck_assert_msg(!shoal_pq_peek(&q, t, &got), "ticket %lu taken without word %d", (unsigned long)t, miss);
      /* The right data under the wrong tag does not count either. */
      slots[0].w[miss] = shoal_pq_word((uint32_t)w[miss], shoal_pq_tag(t - 4));
      ck_assert(!shoal_pq_peek(&q, t, &got));
    }
    memcpy(slots[0].w, w, sizeof w);
    ck_assert(shoal_pq_peek(&q, t, &got));
    ck_assert(memcmp(&got, &c, sizeof c) == 0);
    /* Post the rest of the generation for real and consume it. */
    head = t;
    done_seen = done_word;
    for (uint64_t u = t; u < t + 4; u++) {
      shoal_pq_cmd d = sample(SHOAL_PQ_PUT_INLINE, u);
      if (u == t) d = c;
      ck_assert_uint_eq(shoal_pq_post(&q, &d), u);
      consume(u, 0);
    }
  }
}
END_TEST

/* The host's drain (quiet) asks whether the ticket the consumer is at has
 * been posted: yes from the first word on, no once everything posted is
 * carried out, over several laps of the ring (consumed slots keep their
 * tags). */
START_TEST(test_queue_pending)
{
  make_queue(4, &done_word);
  ck_assert(!shoal_pq_pending(&q, done_word));   /* fresh queue */
  for (uint64_t lap = 0; lap < 3; lap++) {
    uint64_t first = done_word, n = 1 + lap;   /* 1, 2, 3 commands */
    for (uint64_t k = 0; k < n; k++) {
      shoal_pq_cmd c = sample(k % 2 ? SHOAL_PQ_PUT_INLINE : SHOAL_PQ_AMO, first + k);
      shoal_pq_post(&q, &c);
      ck_assert(shoal_pq_pending(&q, done_word));
    }
    for (uint64_t k = 0; k < n; k++) {
      ck_assert_msg(shoal_pq_pending(&q, done_word), "ticket %lu posted but not pending",
                    (unsigned long)done_word);
      consume(done_word, 0);
      shoal_pq_result r = results[(done_word - 1) & 3];   /* a fetching command's reader takes it */
      uint64_t v;
      if (shoal_pq_tag_of(r.w[0]) == shoal_pq_tag(done_word - 1)) ck_assert(shoal_pq_poll_result(&q, done_word - 1, &v));
    }
    ck_assert_msg(!shoal_pq_pending(&q, done_word), "lap %lu: nothing posted, yet pending", (unsigned long)lap);
  }
  /* One word of the next ticket written (a producer mid-post): pending. */
  uint64_t t = done_word, w[SHOAL_PQ_WORDS];
  shoal_pq_cmd c = sample(SHOAL_PQ_PUT_INLINE, t);
  shoal_pq_encode(&c, shoal_pq_tag(t), w);
  slots[t & 3].w[9] = w[9];
  ck_assert(shoal_pq_pending(&q, t));
}
END_TEST

/* Results: both words must carry the tag; an entry is reused only once its
 * reader took the result; a taken entry never reads as a later result. */
START_TEST(test_queue_results)
{
  make_queue(4, &done_word);
  uint64_t r;
  for (uint64_t t = 0; t < 8; t++) ck_assert(!shoal_pq_poll_result(&q, t, &r));   /* start state */
  shoal_pq_cmd f = sample(SHOAL_PQ_AMO, 0), p = sample(SHOAL_PQ_PUT_INLINE, 0), got;
  ck_assert(shoal_pq_fetches(&f) && !shoal_pq_fetches(&p));
  ck_assert_uint_eq(shoal_pq_post(&q, &f), 0);
  ck_assert(!shoal_pq_poll_result(&q, 0, &r));
  consume(0, 0x1111111122222222ull);
  for (uint64_t t = 1; t < 4; t++) {
    shoal_pq_post(&q, &p);
    consume(t, 0);
  }
  /* Ticket 4 fetches into entry 0, whose result ticket 0 has not taken. */
  ck_assert_uint_eq(shoal_pq_post(&q, &f), 4);
  ck_assert(!shoal_pq_result_free(&q, 4));
  ck_assert(!shoal_pq_peek(&q, 4, &got));
  ck_assert(!shoal_pq_poll_result(&q, 4, &r));
  ck_assert(shoal_pq_poll_result(&q, 0, &r));
  ck_assert_uint_eq(r, 0x1111111122222222ull);
  ck_assert(!shoal_pq_poll_result(&q, 0, &r));   /* taken: read once */
  ck_assert(shoal_pq_result_free(&q, 4));
  /* Half-written results of ticket 4 (either word first) are not results,
   * over the taken marks of ticket 0. */
  uint64_t m0 = results[0].w[0], m1 = results[0].w[1];
  results[0].w[0] = shoal_pq_lo(0x3333333344444444ull, shoal_pq_tag(4));
  ck_assert(!shoal_pq_poll_result(&q, 4, &r));
  results[0].w[0] = m0;
  results[0].w[1] = shoal_pq_hi(0x3333333344444444ull, shoal_pq_tag(4));
  ck_assert(!shoal_pq_poll_result(&q, 4, &r));
  results[0].w[1] = m1;
  ck_assert(shoal_pq_peek(&q, 4, &got));
  shoal_pq_complete(&q, 4, true, 0x3333333344444444ull);
  ck_assert(!shoal_pq_poll_result(&q, 0, &r));   /* 4's result is not 0's */
  ck_assert(!shoal_pq_poll_result(&q, 8, &r));
  ck_assert(shoal_pq_poll_result(&q, 4, &r));
  ck_assert_uint_eq(r, 0x3333333344444444ull);
  ck_assert_uint_eq(done_seen, 4);   /* raised by the results */
}
END_TEST

/* done lives in a page that faults when read or written: a producer whose
 * bound suffices must not touch it. */
static uint64_t *done_page;

static void done_access(bool allowed)
{
  ck_assert_int_eq(mprotect(done_page, (size_t)sysconf(_SC_PAGESIZE), allowed ? PROT_READ | PROT_WRITE : PROT_NONE), 0);
}

static void *post_one(void *arg)
{
  shoal_pq_cmd c = sample(SHOAL_PQ_PUT_INLINE, (uintptr_t)arg);
  return (void *)(uintptr_t)shoal_pq_post(&q, &c);
}

START_TEST(test_queue_done_seen)
{
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  done_page = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ck_assert(done_page != MAP_FAILED);
  make_queue(4, done_page);
  shoal_pq_cmd f = sample(SHOAL_PQ_AMO, 0), p = sample(SHOAL_PQ_PUT_INLINE, 0);
  uint64_t r;
  done_access(false);
  for (uint64_t t = 0; t < 4; t++) ck_assert_uint_eq(shoal_pq_post(&q, &f), t);   /* an empty ring */
  done_access(true);
  for (uint64_t t = 0; t < 4; t++) consume(t, t * salt);
  done_access(false);
  for (uint64_t t = 0; t < 4; t++) {
    r = shoal_pq_take_result(&q, t);   /* results, not done */
    ck_assert_uint_eq(r, t * salt);
  }
  ck_assert_uint_eq(done_seen, 3);   /* ticket 3's result: done >= 3 */
  for (uint64_t t = 4; t < 7; t++) ck_assert_uint_eq(shoal_pq_post(&q, &p), t);   /* 4..6 < 3 + 4 */
  done_access(true);
  /* Ticket 7 needs done > 3: read from done (4), which raises the bound. */
  ck_assert_uint_eq(shoal_pq_post(&q, &p), 7);
  ck_assert_uint_eq(done_seen, 4);
  for (uint64_t t = 4; t < 8; t++) consume(t, 0);
  shoal_pq_wait(&q, 7);
  ck_assert_uint_eq(done_seen, 8);
  done_access(false);
  for (uint64_t t = 8; t < 12; t++) ck_assert_uint_eq(shoal_pq_post(&q, &p), t);
  done_access(true);
  /* Ticket 12 goes to slot 0, which still holds ticket 8: it waits. */
  pthread_t th;
  ck_assert_int_eq(pthread_create(&th, NULL, post_one, (void *)(uintptr_t)12), 0);
  while (shoal_load_acquire(&head) != 13) usleep(1000);   /* it has its ticket */
  usleep(20000);
  shoal_pq_cmd got;
  ck_assert(shoal_pq_peek(&q, 8, &got));   /* untouched */
  ck_assert(memcmp(&got, &p, sizeof p) == 0);
  for (uint64_t t = 8; t < 12; t++) consume(t, 0);
  void *t12;
  pthread_join(th, &t12);
  ck_assert_uint_eq((uintptr_t)t12, 12);
  consume(12, 0);
  ck_assert_uint_eq(*done_page, 13);
  munmap(done_page, page);
}
END_TEST

int main(void)
{
  srandom((unsigned)time(NULL));
  Suite *s = suite_create("proxy_queue");
  TCase *tc = tcase_create("queue");
  tcase_set_timeout(tc, 180);   /* ~1 s alone; minutes on a loaded 2-core VM */
  tcase_add_test(tc, test_queue_single);
  tcase_add_test(tc, test_queue_partial_command);
  tcase_add_test(tc, test_queue_pending);
  tcase_add_test(tc, test_queue_results);
  tcase_add_test(tc, test_queue_done_seen);
  tcase_add_loop_test(tc, test_queue_threads_wrap, 0, 2);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
