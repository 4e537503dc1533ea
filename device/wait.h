/* Point-to-point synchronization on local symmetric memory: test and
 * wait_until with their _all, _any, _some and _vector forms.  One generic
 * body per form, instantiated for each sync type. */
#ifndef SHOAL_DEVICE_WAIT_H
#define SHOAL_DEVICE_WAIT_H

#include "arch.h"
#include <shoal/constants.h>
#include <shoal/types.h>

#define SHOAL_DEV_WAIT(T, N) \
  SHOAL_FN int shoal_dev_##N##_compare(T a, int cmp, T b) { \
    switch (cmp) { \
    case SHMEM_CMP_EQ: return a == b; \
    case SHMEM_CMP_NE: return a != b; \
    case SHMEM_CMP_GT: return a > b; \
    case SHMEM_CMP_GE: return a >= b; \
    case SHMEM_CMP_LT: return a < b; \
    default: return a <= b; \
    } \
  } \
  SHOAL_FN int shoal_dev_##N##_test(const T *ivar, int cmp, T v) { \
    return shoal_dev_##N##_compare(shoal_load_acquire(ivar), cmp, v); \
  } \
  SHOAL_FN void shoal_dev_##N##_wait_until(const T *ivar, int cmp, T v) { \
    shoal_backoff b = SHOAL_BACKOFF_WATCH(ivar, cmp, v); \
    while (!shoal_dev_##N##_test(ivar, cmp, v)) { shoal_wait_progress(); shoal_backoff_wait(&b); } \
  } \
  /* One pass over ivars: vals == NULL compares each against *v.  Returns \
   * the number satisfied among those not excluded by status; fills \
   * indices (if given) and *first (first satisfied, SIZE_MAX if none). */ \
  SHOAL_FN size_t shoal_dev_##N##_scan(const T *ivars, size_t n, const int *status, int cmp, \
                                       const T *vals, T v, size_t *indices, size_t *first, \
                                       size_t *active) { \
    size_t hits = 0; *first = SIZE_MAX; *active = 0; \
    for (size_t i = 0; i < n; i++) { \
      if (status && status[i]) continue; \
      (*active)++; \
      if (shoal_dev_##N##_test(&ivars[i], cmp, vals ? vals[i] : v)) { \
        if (*first == SIZE_MAX) *first = i; \
        if (indices) indices[hits] = i; \
        hits++; \
      } \
    } \
    return hits; \
  } \
  /* The first satisfied index at or after start, wrapping around (SIZE_MAX \
   * if none): callers rotate start so that repeated _any calls return \
   * every satisfied index, not only the lowest. */ \
  SHOAL_FN size_t shoal_dev_##N##_scan_from(const T *ivars, size_t n, const int *status, int cmp, \
                                            const T *vals, T v, size_t start, size_t *active) { \
    size_t found = SIZE_MAX; *active = 0; \
    for (size_t k = 0; k < n; k++) { \
      size_t i = start + k < n ? start + k : start + k - n; \
      if (status && status[i]) continue; \
      (*active)++; \
      if (found == SIZE_MAX && shoal_dev_##N##_test(&ivars[i], cmp, vals ? vals[i] : v)) found = i; \
    } \
    return found; \
  } \
  SHOAL_FN int shoal_dev_##N##_test_all(const T *ivars, size_t n, const int *status, int cmp, \
                                        const T *vals, T v) { \
    size_t first, active; \
    return shoal_dev_##N##_scan(ivars, n, status, cmp, vals, v, NULL, &first, &active) == active; \
  } \
  SHOAL_FN size_t shoal_dev_##N##_test_any(const T *ivars, size_t n, const int *status, int cmp, \
                                           const T *vals, T v) { \
    size_t first, active; \
    shoal_dev_##N##_scan(ivars, n, status, cmp, vals, v, NULL, &first, &active); \
    return first; \
  } \
  SHOAL_FN size_t shoal_dev_##N##_test_some(const T *ivars, size_t n, size_t *indices, \
                                            const int *status, int cmp, const T *vals, T v) { \
    size_t first, active; \
    return shoal_dev_##N##_scan(ivars, n, status, cmp, vals, v, indices, &first, &active); \
  } \
  SHOAL_FN void shoal_dev_##N##_wait_until_all(const T *ivars, size_t n, const int *status, \
                                               int cmp, const T *vals, T v) { \
    shoal_backoff b = SHOAL_BACKOFF_WATCH(ivars, cmp, vals ? vals[0] : v); \
    while (!shoal_dev_##N##_test_all(ivars, n, status, cmp, vals, v)) { \
      shoal_wait_progress(); shoal_backoff_wait(&b); \
    } \
  } \
  SHOAL_FN size_t shoal_dev_##N##_wait_until_any(const T *ivars, size_t n, const int *status, \
                                                 int cmp, const T *vals, T v) { \
    shoal_backoff b = SHOAL_BACKOFF_WATCH(ivars, cmp, vals ? vals[0] : v); \
    for (;;) { \
      size_t first, active; \
      shoal_dev_##N##_scan(ivars, n, status, cmp, vals, v, NULL, &first, &active); \
      if (first != SIZE_MAX || active == 0) return first; \
      shoal_wait_progress(); shoal_backoff_wait(&b); \
    } \
  } \
  SHOAL_FN size_t shoal_dev_##N##_wait_until_some(const T *ivars, size_t n, size_t *indices, \
                                                  const int *status, int cmp, const T *vals, T v) { \
    shoal_backoff b = SHOAL_BACKOFF_WATCH(ivars, cmp, vals ? vals[0] : v); \
    for (;;) { \
      size_t first, active; \
      size_t hits = shoal_dev_##N##_scan(ivars, n, status, cmp, vals, v, indices, &first, &active); \
      if (hits > 0 || active == 0) return hits; \
      shoal_wait_progress(); shoal_backoff_wait(&b); \
    } \
  }

SHOAL_SYNC_TYPES(SHOAL_DEV_WAIT)

#endif
