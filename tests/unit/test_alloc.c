/* The symmetric heap allocator (runtime/alloc.c), compiled into this test.
 *
 * Besides targeted cases (alignment, coalescing, realloc in place and by
 * move, exhaustion), a random sequence of operations runs against a
 * reference model: a map of which grain belongs to which block.  First fit
 * over coalesced free runs has exactly one right answer (the lowest aligned
 * start whose range is free), so the model predicts every offset and every
 * failure, not just "no overlap". */
#include "internal.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#define GRAIN 16

static size_t round_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

START_TEST(test_basic_alignment)
{
  shoal_allocator *a = shoal_alloc_create(1 << 20);
  ck_assert_ptr_nonnull(a);
  size_t aligns[] = {1, 8, 16, 64, 256, 4096, 65536};
  size_t prev_end = 0;
  for (size_t i = 0; i < sizeof aligns / sizeof *aligns; i++) {
    size_t off = shoal_alloc(a, 24 + i, aligns[i]);
    ck_assert_uint_ne(off, SIZE_MAX);
    ck_assert_uint_eq(off % (aligns[i] < GRAIN ? GRAIN : aligns[i]), 0);
    ck_assert_uint_ge(off, prev_end);   /* no overlap with the previous block */
    ck_assert_uint_ge(shoal_alloc_block_size(a, off), 24 + i);
    prev_end = off + shoal_alloc_block_size(a, off);
  }
  ck_assert_uint_eq(shoal_alloc_live_blocks(a), 7);
  /* not a power of two, zero size, larger than the heap */
  ck_assert_uint_eq(shoal_alloc(a, 64, 48), SIZE_MAX);
  ck_assert_uint_eq(shoal_alloc(a, 0, 16), SIZE_MAX);
  ck_assert_uint_eq(shoal_alloc(a, (1 << 20) + 1, 16), SIZE_MAX);
  ck_assert_uint_eq(shoal_alloc(a, SIZE_MAX, 16), SIZE_MAX);
  ck_assert_uint_eq(shoal_alloc_live_blocks(a), 7);
  shoal_alloc_destroy(a);
}
END_TEST

/* With a phase, (offset + phase) is aligned: addresses in a heap whose
 * base sits phase bytes past an alignment boundary. */
START_TEST(test_alloc_phase)
{
  shoal_allocator *a = shoal_alloc_create(1 << 20);
  size_t phases[] = {0, 4096, 8192, 61440};
  for (size_t k = 0; k < 4; k++) {
    size_t pad = shoal_alloc(a, 16 * (k + 1), GRAIN);
    size_t off = shoal_alloc_phase(a, 100, 65536, phases[k]);
    ck_assert_uint_ne(off, SIZE_MAX);
    ck_assert_uint_eq((off + phases[k]) % 65536, 0);
    ck_assert_uint_eq(shoal_alloc_phase(a, 100, 65536, 8), SIZE_MAX);   /* not on a grain */
    ck_assert_int_eq(shoal_alloc_free(a, off), 0);
    ck_assert_int_eq(shoal_alloc_free(a, pad), 0);
  }
  ck_assert_uint_eq(shoal_alloc_largest_free(a), 1 << 20);
  shoal_alloc_destroy(a);
}
END_TEST

START_TEST(test_free_coalesces)
{
  size_t size = 64 * 1024;
  shoal_allocator *a = shoal_alloc_create(size);
  size_t q = size / 4, off[4];
  for (int i = 0; i < 4; i++) {
    off[i] = shoal_alloc(a, q, GRAIN);
    ck_assert_uint_eq(off[i], (size_t)i * q);
  }
  ck_assert_uint_eq(shoal_alloc_free_bytes(a), 0);
  ck_assert_uint_eq(shoal_alloc(a, GRAIN, GRAIN), SIZE_MAX);
  /* free 0 and 2: two holes of q, none bigger */
  ck_assert_int_eq(shoal_alloc_free(a, off[0]), 0);
  ck_assert_int_eq(shoal_alloc_free(a, off[2]), 0);
  ck_assert_uint_eq(shoal_alloc_largest_free(a), q);
  ck_assert_uint_eq(shoal_alloc(a, q + GRAIN, GRAIN), SIZE_MAX);
  /* freeing 1 merges 0..2 into one run (both neighbours) */
  ck_assert_int_eq(shoal_alloc_free(a, off[1]), 0);
  ck_assert_uint_eq(shoal_alloc_largest_free(a), 3 * q);
  ck_assert_int_eq(shoal_alloc_free(a, off[3]), 0);
  ck_assert_uint_eq(shoal_alloc_largest_free(a), size);
  ck_assert_uint_eq(shoal_alloc_live_blocks(a), 0);
  /* double free and a foreign offset are refused */
  ck_assert_int_eq(shoal_alloc_free(a, off[3]), -1);
  ck_assert_int_eq(shoal_alloc_free(a, 8), -1);
  /* the whole heap is one block again */
  ck_assert_uint_eq(shoal_alloc(a, size, GRAIN), 0);
  shoal_alloc_destroy(a);
}
END_TEST

START_TEST(test_resize)
{
  shoal_allocator *a = shoal_alloc_create(1 << 16);
  int moved = -1;
  size_t x = shoal_alloc(a, 100, GRAIN), y = shoal_alloc(a, 100, GRAIN);
  ck_assert_uint_eq(x, 0);
  ck_assert_uint_eq(y, round_up(100, GRAIN));
  /* grow x: y is in the way, so it moves (the caller frees the old block) */
  size_t nx = shoal_alloc_resize(a, x, 300, &moved);
  ck_assert_int_eq(moved, 1);
  ck_assert_uint_eq(nx, y + round_up(100, GRAIN));
  ck_assert_int_eq(shoal_alloc_free(a, x), 0);
  /* grow nx in place into the free space behind it */
  size_t gx = shoal_alloc_resize(a, nx, 1000, &moved);
  ck_assert_int_eq(moved, 0);
  ck_assert_uint_eq(gx, nx);
  ck_assert_uint_ge(shoal_alloc_block_size(a, nx), 1000);
  /* shrink in place; the tail goes back and merges with the free rest */
  size_t sx = shoal_alloc_resize(a, nx, 40, &moved);
  ck_assert_int_eq(moved, 0);
  ck_assert_uint_eq(sx, nx);
  ck_assert_uint_eq(shoal_alloc_block_size(a, nx), round_up(40, GRAIN));
  ck_assert_uint_eq(shoal_alloc_largest_free(a), (1 << 16) - nx - round_up(40, GRAIN));
  /* grow exactly into a free neighbour of the same size */
  ck_assert_int_eq(shoal_alloc_free(a, y), 0);   /* hole [0, 2*112) before nx */
  size_t z = shoal_alloc(a, 112, GRAIN), w = shoal_alloc(a, 112, GRAIN);
  ck_assert_uint_eq(z, 0);
  ck_assert_uint_eq(w, 112);
  ck_assert_int_eq(shoal_alloc_free(a, w), 0);
  ck_assert_uint_eq(shoal_alloc_resize(a, z, 224, &moved), 0);
  ck_assert_int_eq(moved, 0);
  ck_assert_uint_eq(shoal_alloc_block_size(a, 0), 224);
  /* no room anywhere: SIZE_MAX, the block is kept */
  ck_assert_uint_eq(shoal_alloc_resize(a, z, 1 << 17, &moved), SIZE_MAX);
  ck_assert_int_eq(moved, 0);
  ck_assert_uint_eq(shoal_alloc_block_size(a, 0), 224);
  /* not a live block */
  ck_assert_uint_eq(shoal_alloc_resize(a, 16, 64, &moved), SIZE_MAX);
  shoal_alloc_destroy(a);
}
END_TEST

START_TEST(test_exhaust_then_reuse)
{
  size_t size = 1 << 20, chunk = 4096 + 16;
  shoal_allocator *a = shoal_alloc_create(size);
  size_t *offs = malloc(sizeof *offs * (size / chunk + 1)), n = 0, off;
  while ((off = shoal_alloc(a, chunk, 64)) != SIZE_MAX) offs[n++] = off;
  ck_assert_uint_gt(n, size / (chunk + 64) - 1);
  ck_assert_uint_eq(shoal_alloc_live_blocks(a), n);   /* hash table grew past 64 */
  ck_assert_uint_lt(shoal_alloc_largest_free(a), chunk);
  for (size_t i = 0; i < n; i++) ck_assert_uint_eq(shoal_alloc_block_size(a, offs[i]), chunk);
  /* free every other block: fragmented, nothing bigger than one chunk fits */
  for (size_t i = 0; i < n; i += 2) ck_assert_int_eq(shoal_alloc_free(a, offs[i]), 0);
  ck_assert_uint_eq(shoal_alloc(a, 3 * chunk, GRAIN), SIZE_MAX);
  ck_assert_uint_eq(shoal_alloc(a, chunk, GRAIN), offs[0]);   /* first fit reuses */
  ck_assert_int_eq(shoal_alloc_free(a, offs[0]), 0);
  for (size_t i = 1; i < n; i += 2) ck_assert_int_eq(shoal_alloc_free(a, offs[i]), 0);
  ck_assert_uint_eq(shoal_alloc_live_blocks(a), 0);
  ck_assert_uint_eq(shoal_alloc_free_bytes(a), size);
  ck_assert_uint_eq(shoal_alloc(a, size, GRAIN), 0);
  free(offs);
  shoal_alloc_destroy(a);
}
END_TEST

/* ---- random operations against the reference model ---------------------- */
#define MODEL_SIZE (256 * 1024)
#define UNITS (MODEL_SIZE / GRAIN)
#define MAX_LIVE 200

typedef struct { size_t off, size; int id; } live_block;
static int owner[UNITS];   /* 0: free, else block id */

/* The lowest aligned start with size bytes free, or SIZE_MAX. */
static size_t model_first_fit(size_t size, size_t align)
{
  size = round_up(size, GRAIN);
  for (size_t s = 0; s + size <= MODEL_SIZE; s += align) {
    size_t u = s / GRAIN, k = 0;
    while (k < size / GRAIN && owner[u + k] == 0) k++;
    if (k == size / GRAIN) return s;
  }
  return SIZE_MAX;
}

static void model_mark(size_t off, size_t size, int id)
{
  for (size_t u = off / GRAIN; u < (off + round_up(size, GRAIN)) / GRAIN; u++) owner[u] = id;
}

static size_t model_free_bytes(void)
{
  size_t n = 0;
  for (size_t u = 0; u < UNITS; u++) n += owner[u] == 0;
  return n * GRAIN;
}

static size_t model_largest_run(void)
{
  size_t best = 0, run = 0;
  for (size_t u = 0; u < UNITS; u++) {
    run = owner[u] ? 0 : run + 1;
    if (run > best) best = run;
  }
  return best * GRAIN;
}

START_TEST(test_random_against_model)
{
  unsigned seed = (unsigned)_i * 7919u + 17u;
  memset(owner, 0, sizeof owner);
  shoal_allocator *a = shoal_alloc_create(MODEL_SIZE);
  live_block live[MAX_LIVE];
  int nlive = 0, next_id = 1;
  for (int step = 0; step < 4000; step++) {
    int op = rand_r(&seed) % 10;
    size_t size = 1 + (size_t)(rand_r(&seed) % 3 == 0 ? rand_r(&seed) % 32768 : rand_r(&seed) % 600);
    if (op < 5 && nlive < MAX_LIVE) {   /* alloc */
      size_t align = (size_t)1 << (rand_r(&seed) % 13);
      size_t want = model_first_fit(size, align < GRAIN ? GRAIN : align);
      size_t got = shoal_alloc(a, size, align);
      ck_assert_msg(got == want, "step %d: alloc(%zu, %zu) gave %zu, first fit is %zu", step, size,
                    align, got, want);
      if (got != SIZE_MAX) {
        model_mark(got, size, next_id);
        live[nlive++] = (live_block){got, round_up(size, GRAIN), next_id++};
      }
    } else if (op < 8 && nlive > 0) {   /* free */
      int k = rand_r(&seed) % nlive;
      ck_assert_int_eq(shoal_alloc_free(a, live[k].off), 0);
      model_mark(live[k].off, live[k].size, 0);
      live[k] = live[--nlive];
    } else if (nlive > 0) {   /* resize: in place when the run after it allows */
      int k = rand_r(&seed) % nlive, moved;
      live_block *b = &live[k];
      size_t need = round_up(size, GRAIN);
      model_mark(b->off, b->size, 0);
      bool in_place = true;
      for (size_t u = b->off / GRAIN; u < (b->off + need) / GRAIN; u++)
        if (u >= UNITS || owner[u]) in_place = false;
      size_t want = in_place ? b->off : SIZE_MAX;
      if (!in_place) {   /* moves: the old block is still held while allocating */
        model_mark(b->off, b->size, b->id);
        want = model_first_fit(size, GRAIN);
      }
      size_t got = shoal_alloc_resize(a, b->off, size, &moved);
      ck_assert_msg(got == want, "step %d: resize(%zu -> %zu) gave %zu, expected %zu", step,
                    b->size, size, got, want);
      ck_assert_int_eq(moved, got != SIZE_MAX && got != b->off);
      if (in_place) {
        b->size = need;
        model_mark(b->off, need, b->id);
      } else if (got != SIZE_MAX) {
        ck_assert_int_eq(shoal_alloc_free(a, b->off), 0);
        model_mark(b->off, b->size, 0);
        model_mark(got, need, b->id);
        b->off = got;
        b->size = need;
      }
    }
    ck_assert_uint_eq(shoal_alloc_live_blocks(a), (size_t)nlive);
    if (step % 50 == 0) {
      ck_assert_uint_eq(shoal_alloc_free_bytes(a), model_free_bytes());
      ck_assert_uint_eq(shoal_alloc_largest_free(a), model_largest_run());
      for (int i = 0; i < nlive; i++)
        ck_assert_uint_eq(shoal_alloc_block_size(a, live[i].off), live[i].size);
    }
  }
  /* free everything: one free run again */
  while (nlive > 0) ck_assert_int_eq(shoal_alloc_free(a, live[--nlive].off), 0);
  ck_assert_uint_eq(shoal_alloc_largest_free(a), MODEL_SIZE);
  shoal_alloc_destroy(a);
}
END_TEST

static Suite *alloc_suite(void)
{
  Suite *s = suite_create("alloc");
  TCase *tc = tcase_create("alloc");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_basic_alignment);
  tcase_add_test(tc, test_alloc_phase);
  tcase_add_test(tc, test_free_coalesces);
  tcase_add_test(tc, test_resize);
  tcase_add_test(tc, test_exhaust_then_reuse);
  tcase_add_loop_test(tc, test_random_against_model, 0, 4);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(alloc_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
