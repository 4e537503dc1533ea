/* C11 type-generic names of the OpenSHMEM 1.6 additions: shmem_ibput,
 * shmem_ibget (with ctx forms), shmem_signal_add/set (the ctx form has the
 * same name), shmem_sum_inscan/exscan.  Uses the helpers of
 * <shoal/generic.h>, which <shmem.h> includes first. */
#ifndef SHOAL_GENERIC16_H
#define SHOAL_GENERIC16_H

#define shmem_ibput(...) SHOAL_G_SELECT_CTX(SHOAL_G_RMA_TYPES, ibput, __VA_ARGS__)
#define shmem_ibget(...) SHOAL_G_SELECT_CTX(SHOAL_G_RMA_TYPES, ibget, __VA_ARGS__)

#define shmem_signal_add(...) \
  _Generic((SHOAL_G_ARG1(__VA_ARGS__, 0)), shmem_ctx_t: shmem_ctx_signal_add, \
           default: shmem_signal_add)(__VA_ARGS__)
#define shmem_signal_set(...) \
  _Generic((SHOAL_G_ARG1(__VA_ARGS__, 0)), shmem_ctx_t: shmem_ctx_signal_set, \
           default: shmem_signal_set)(__VA_ARGS__)

/* Scans: the distinct C types of the SUM reduction (Table 10). */
#define SHOAL_G16_SCAN(T, N, OP) T *: shmem_##N##_sum_##OP,
#define SHOAL_G16_SCAN_TYPES(X, A) \
  X(char, char, A) X(signed char, schar, A) X(short, short, A) X(int, int, A) X(long, long, A) \
  X(long long, longlong, A) X(unsigned char, uchar, A) X(unsigned short, ushort, A) \
  X(unsigned int, uint, A) X(unsigned long, ulong, A) X(unsigned long long, ulonglong, A) \
  X(float, float, A) X(double, double, A) X(long double, longdouble, A) \
  X(double _Complex, complexd, A) X(float _Complex, complexf, A)
#define shmem_sum_inscan(team, dest, ...) \
  _Generic((dest), SHOAL_G16_SCAN_TYPES(SHOAL_G16_SCAN, inscan) \
           default: shoal_generic_unsupported_type)(team, dest, __VA_ARGS__)
#define shmem_sum_exscan(team, dest, ...) \
  _Generic((dest), SHOAL_G16_SCAN_TYPES(SHOAL_G16_SCAN, exscan) \
           default: shoal_generic_unsupported_type)(team, dest, __VA_ARGS__)

#endif
