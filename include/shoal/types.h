/* The OpenSHMEM 1.5 type tables, written once.
 *
 * Every typed API family (shmem_int_put, shmem_long_atomic_fetch_add,
 * shmem_float_sum_reduce, ...) is generated from these lists.  Each entry
 * is X(C type, TYPENAME).  Pass a macro that takes (T, N). */
#ifndef SHOAL_TYPES_H
#define SHOAL_TYPES_H

#include <stddef.h>
#include <stdint.h>

/* Table 5: standard RMA types; SHOAL_RMA_DEVICE_TYPES leaves out long
 * double, whose size differs between host and GPU code. */
#define SHOAL_RMA_TYPES(X) SHOAL_RMA_DEVICE_TYPES(X) X(long double, longdouble)
#define SHOAL_RMA_DEVICE_TYPES(X) \
  X(float, float) X(double, double) \
  X(char, char) X(signed char, schar) X(short, short) X(int, int) X(long, long) \
  X(long long, longlong) X(unsigned char, uchar) X(unsigned short, ushort) \
  X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong) \
  X(int8_t, int8) X(int16_t, int16) X(int32_t, int32) X(int64_t, int64) \
  X(uint8_t, uint8) X(uint16_t, uint16) X(uint32_t, uint32) X(uint64_t, uint64) \
  X(size_t, size) X(ptrdiff_t, ptrdiff)

/* Sized RMA forms: X(bits, bytes). */
#define SHOAL_SIZED_RMA(X) X(8, 1) X(16, 2) X(32, 4) X(64, 8) X(128, 16)

/* Table 6: standard AMO types (all AMOs). */
#define SHOAL_AMO_STD_TYPES(X) \
  X(int, int) X(long, long) X(long long, longlong) X(unsigned int, uint) \
  X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int32_t, int32) \
  X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size) \
  X(ptrdiff_t, ptrdiff)

/* Extended AMO types: fetch, set, swap also take float and double. */
#define SHOAL_AMO_EXT_TYPES(X) SHOAL_AMO_STD_TYPES(X) X(float, float) X(double, double)

/* Bitwise AMO types: and, or, xor. */
#define SHOAL_AMO_BIT_TYPES(X) \
  X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong) \
  X(int32_t, int32) X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64)

/* Point-to-point synchronization types: wait_until, test. */
#define SHOAL_SYNC_TYPES(X) \
  X(short, short) X(int, int) X(long, long) X(long long, longlong) \
  X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong) \
  X(unsigned long long, ulonglong) X(int32_t, int32) X(int64_t, int64) \
  X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size) X(ptrdiff_t, ptrdiff)

/* Table 10: reduction types by operator class. */
#define SHOAL_REDUCE_BITWISE_TYPES(X) \
  X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint) \
  X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int8_t, int8) \
  X(int16_t, int16) X(int32_t, int32) X(int64_t, int64) X(uint8_t, uint8) \
  X(uint16_t, uint16) X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size)

#define SHOAL_REDUCE_MINMAX_TYPES(X) SHOAL_REDUCE_MINMAX_DEVICE_TYPES(X) X(long double, longdouble)
#define SHOAL_REDUCE_MINMAX_DEVICE_TYPES(X) \
  X(char, char) X(signed char, schar) X(short, short) X(int, int) X(long, long) \
  X(long long, longlong) X(ptrdiff_t, ptrdiff) X(unsigned char, uchar) \
  X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong) \
  X(unsigned long long, ulonglong) X(int8_t, int8) X(int16_t, int16) \
  X(int32_t, int32) X(int64_t, int64) X(uint8_t, uint8) X(uint16_t, uint16) \
  X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size) X(float, float) \
  X(double, double)

#if defined(__cplusplus) && (defined(__CUDACC__) || defined(__HIPCC__))
#define SHOAL_REDUCE_COMPLEX_TYPES(X)   /* GPU units: not in device code */
#elif defined(__cplusplus)
/* C++: std::complex<T> has the layout of C's T _Complex, so the same
 * library routines take it. */
#include <complex>
#define SHOAL_REDUCE_COMPLEX_TYPES(X) X(std::complex<double>, complexd) X(std::complex<float>, complexf)
#else
#define SHOAL_REDUCE_COMPLEX_TYPES(X) X(double _Complex, complexd) X(float _Complex, complexf)
#endif
#define SHOAL_REDUCE_ARITH_TYPES(X) SHOAL_REDUCE_MINMAX_TYPES(X) SHOAL_REDUCE_COMPLEX_TYPES(X)

/* Reduction operators: X(op name, class). */
#define SHOAL_REDUCE_OPS(X) \
  X(and, BITWISE) X(or, BITWISE) X(xor, BITWISE) X(min, MINMAX) X(max, MINMAX) \
  X(sum, ARITH) X(prod, ARITH)

/* Deprecated 1.4 active-set reductions (TYPE_OP_to_all). */
#define SHOAL_TOALL_BITWISE_TYPES(X) X(short, short) X(int, int) X(long, long) X(long long, longlong)
#define SHOAL_TOALL_MINMAX_TYPES(X) SHOAL_TOALL_BITWISE_TYPES(X) \
  X(float, float) X(double, double) X(long double, longdouble)
#define SHOAL_TOALL_ARITH_TYPES(X) SHOAL_TOALL_MINMAX_TYPES(X) SHOAL_REDUCE_COMPLEX_TYPES(X)

#endif
