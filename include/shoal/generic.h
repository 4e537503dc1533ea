/* The C11 type-generic interface of OpenSHMEM 1.5: shmem_put(dest, source,
 * nelems, pe) calls shmem_<type>_put for the type dest points to, and
 * shmem_put(ctx, dest, source, nelems, pe) calls shmem_ctx_<type>_put.
 *
 * How: _Generic on the first argument tells the two apart (a shmem_ctx_t
 * first argument selects the ctx routines, dispatched on the second
 * argument); a second _Generic over the type table picks the routine.  The
 * tables below list the distinct C types of each family: the <stdint.h>,
 * size_t and ptrdiff_t names are typedefs of these, and _Generic rejects a
 * type listed twice.  An unsupported type selects
 * shoal_generic_unsupported_type, which fails to compile with the call's
 * arguments.  Included by <shmem.h> for C11 and later (not C++). */
#ifndef SHOAL_GENERIC_H
#define SHOAL_GENERIC_H

/* X(C type, TYPENAME, OP): A passes the operation through to X. */
#define SHOAL_G_RMA_TYPES(X, A) \
  X(float, float, A) X(double, double, A) X(long double, longdouble, A) X(char, char, A) \
  X(signed char, schar, A) X(short, short, A) X(int, int, A) X(long, long, A) \
  X(long long, longlong, A) X(unsigned char, uchar, A) X(unsigned short, ushort, A) \
  X(unsigned int, uint, A) X(unsigned long, ulong, A) X(unsigned long long, ulonglong, A)
#define SHOAL_G_AMO_STD_TYPES(X, A) \
  X(int, int, A) X(long, long, A) X(long long, longlong, A) X(unsigned int, uint, A) \
  X(unsigned long, ulong, A) X(unsigned long long, ulonglong, A)
#define SHOAL_G_AMO_EXT_TYPES(X, A) SHOAL_G_AMO_STD_TYPES(X, A) X(float, float, A) X(double, double, A)
/* Bitwise: the spec's int32_t/int64_t (int and long here) join the unsigned types. */
#define SHOAL_G_AMO_BIT_TYPES(X, A) \
  X(unsigned int, uint, A) X(unsigned long, ulong, A) X(unsigned long long, ulonglong, A) \
  X(int32_t, int32, A) X(int64_t, int64, A)
#define SHOAL_G_SYNC_TYPES(X, A) \
  X(short, short, A) X(int, int, A) X(long, long, A) X(long long, longlong, A) \
  X(unsigned short, ushort, A) X(unsigned int, uint, A) X(unsigned long, ulong, A) \
  X(unsigned long long, ulonglong, A)

/* Team reductions (Table 10), distinct C types only. */
#define SHOAL_G_REDUCE_BIT_TYPES(X, A) \
  X(unsigned char, uchar, A) X(unsigned short, ushort, A) X(unsigned int, uint, A) \
  X(unsigned long, ulong, A) X(unsigned long long, ulonglong, A) X(int8_t, int8, A) \
  X(int16_t, int16, A) X(int32_t, int32, A) X(int64_t, int64, A)
#define SHOAL_G_REDUCE_MINMAX_TYPES(X, A) \
  X(char, char, A) X(signed char, schar, A) X(short, short, A) X(int, int, A) X(long, long, A) \
  X(long long, longlong, A) X(unsigned char, uchar, A) X(unsigned short, ushort, A) \
  X(unsigned int, uint, A) X(unsigned long, ulong, A) X(unsigned long long, ulonglong, A) \
  X(float, float, A) X(double, double, A) X(long double, longdouble, A)
#define SHOAL_G_REDUCE_ARITH_TYPES(X, A) \
  SHOAL_G_REDUCE_MINMAX_TYPES(X, A) X(double _Complex, complexd, A) X(float _Complex, complexf, A)
/* Deprecated 1.4 AMO names (shmem_int_add, shmem_double_swap, ...). */
#define SHOAL_G_DEPR_TYPES(X, A) X(int, int, A) X(long, long, A) X(long long, longlong, A)
#define SHOAL_G_DEPR_EXT_TYPES(X, A) SHOAL_G_DEPR_TYPES(X, A) X(float, float, A) X(double, double, A)

/* Associations: a pointer to T (const or not) selects the typed routine. */
#define SHOAL_G_PLAIN(T, N, OP) T *: shmem_##N##_##OP, const T *: shmem_##N##_##OP,
#define SHOAL_G_CTX(T, N, OP) T *: shmem_ctx_##N##_##OP, const T *: shmem_ctx_##N##_##OP,

/* Declared, never defined: selecting it is a compile error at the call. */
void shoal_generic_unsupported_type(void);

#define SHOAL_G_ARG1(a, ...) a
#define SHOAL_G_ARG2(a, b, ...) b

/* A team collective (team first): dispatch on the second argument, dest. */
#define SHOAL_G_SELECT_TEAM(TABLE, OP, ...) \
  _Generic((SHOAL_G_ARG2(__VA_ARGS__, 0, 0)), \
           TABLE(SHOAL_G_PLAIN, OP) default: shoal_generic_unsupported_type)(__VA_ARGS__)

/* A family without ctx forms: dispatch on the first argument. */
#define SHOAL_G_SELECT(TABLE, OP, ...) \
  _Generic((SHOAL_G_ARG1(__VA_ARGS__, 0)), \
           TABLE(SHOAL_G_PLAIN, OP) default: shoal_generic_unsupported_type)(__VA_ARGS__)

/* A family with ctx forms: a shmem_ctx_t first argument selects those. */
#define SHOAL_G_SELECT_CTX(TABLE, OP, ...) \
  _Generic((SHOAL_G_ARG1(__VA_ARGS__, 0)), \
           shmem_ctx_t: _Generic((SHOAL_G_ARG2(__VA_ARGS__, 0, 0)), \
                                 TABLE(SHOAL_G_CTX, OP) default: shoal_generic_unsupported_type), \
           default: _Generic((SHOAL_G_ARG1(__VA_ARGS__, 0)), \
                             TABLE(SHOAL_G_PLAIN, OP) default: shoal_generic_unsupported_type))( \
      __VA_ARGS__)

/* ---- remote memory access ---------------------------------------------- */
#define shmem_put(...) SHOAL_G_SELECT_CTX(SHOAL_G_RMA_TYPES, put, __VA_ARGS__)
#define shmem_get(...) SHOAL_G_SELECT_CTX(SHOAL_G_RMA_TYPES, get, __VA_ARGS__)
#define shmem_p(...) SHOAL_G_SELECT_CTX(SHOAL_G_RMA_TYPES, p, __VA_ARGS__)
#define shmem_g(...) SHOAL_G_SELECT_CTX(SHOAL_G_RMA_TYPES, g, __VA_ARGS__)
#define shmem_iput(...) SHOAL_G_SELECT_CTX(SHOAL_G_RMA_TYPES, iput, __VA_ARGS__)
#define shmem_iget(...) SHOAL_G_SELECT_CTX(SHOAL_G_RMA_TYPES, iget, __VA_ARGS__)
#define shmem_put_nbi(...) SHOAL_G_SELECT_CTX(SHOAL_G_RMA_TYPES, put_nbi, __VA_ARGS__)
#define shmem_get_nbi(...) SHOAL_G_SELECT_CTX(SHOAL_G_RMA_TYPES, get_nbi, __VA_ARGS__)
#define shmem_put_signal(...) SHOAL_G_SELECT_CTX(SHOAL_G_RMA_TYPES, put_signal, __VA_ARGS__)
#define shmem_put_signal_nbi(...) SHOAL_G_SELECT_CTX(SHOAL_G_RMA_TYPES, put_signal_nbi, __VA_ARGS__)

/* ---- atomic memory operations ------------------------------------------ */
#define shmem_atomic_fetch(...) SHOAL_G_SELECT_CTX(SHOAL_G_AMO_EXT_TYPES, atomic_fetch, __VA_ARGS__)
#define shmem_atomic_set(...) SHOAL_G_SELECT_CTX(SHOAL_G_AMO_EXT_TYPES, atomic_set, __VA_ARGS__)
#define shmem_atomic_swap(...) SHOAL_G_SELECT_CTX(SHOAL_G_AMO_EXT_TYPES, atomic_swap, __VA_ARGS__)
#define shmem_atomic_fetch_nbi(...) \
  SHOAL_G_SELECT_CTX(SHOAL_G_AMO_EXT_TYPES, atomic_fetch_nbi, __VA_ARGS__)
#define shmem_atomic_swap_nbi(...) \
  SHOAL_G_SELECT_CTX(SHOAL_G_AMO_EXT_TYPES, atomic_swap_nbi, __VA_ARGS__)
#define shmem_atomic_compare_swap(...) \
  SHOAL_G_SELECT_CTX(SHOAL_G_AMO_STD_TYPES, atomic_compare_swap, __VA_ARGS__)
#define shmem_atomic_fetch_inc(...) \
  SHOAL_G_SELECT_CTX(SHOAL_G_AMO_STD_TYPES, atomic_fetch_inc, __VA_ARGS__)
#define shmem_atomic_inc(...) SHOAL_G_SELECT_CTX(SHOAL_G_AMO_STD_TYPES, atomic_inc, __VA_ARGS__)
#define shmem_atomic_fetch_add(...) \
  SHOAL_G_SELECT_CTX(SHOAL_G_AMO_STD_TYPES, atomic_fetch_add, __VA_ARGS__)
#define shmem_atomic_add(...) SHOAL_G_SELECT_CTX(SHOAL_G_AMO_STD_TYPES, atomic_add, __VA_ARGS__)
#define shmem_atomic_compare_swap_nbi(...) \
  SHOAL_G_SELECT_CTX(SHOAL_G_AMO_STD_TYPES, atomic_compare_swap_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_inc_nbi(...) \
  SHOAL_G_SELECT_CTX(SHOAL_G_AMO_STD_TYPES, atomic_fetch_inc_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_add_nbi(...) \
  SHOAL_G_SELECT_CTX(SHOAL_G_AMO_STD_TYPES, atomic_fetch_add_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_and(...) \
  SHOAL_G_SELECT_CTX(SHOAL_G_AMO_BIT_TYPES, atomic_fetch_and, __VA_ARGS__)
#define shmem_atomic_and(...) SHOAL_G_SELECT_CTX(SHOAL_G_AMO_BIT_TYPES, atomic_and, __VA_ARGS__)
#define shmem_atomic_fetch_or(...) \
  SHOAL_G_SELECT_CTX(SHOAL_G_AMO_BIT_TYPES, atomic_fetch_or, __VA_ARGS__)
#define shmem_atomic_or(...) SHOAL_G_SELECT_CTX(SHOAL_G_AMO_BIT_TYPES, atomic_or, __VA_ARGS__)
#define shmem_atomic_fetch_xor(...) \
  SHOAL_G_SELECT_CTX(SHOAL_G_AMO_BIT_TYPES, atomic_fetch_xor, __VA_ARGS__)
#define shmem_atomic_xor(...) SHOAL_G_SELECT_CTX(SHOAL_G_AMO_BIT_TYPES, atomic_xor, __VA_ARGS__)
#define shmem_atomic_fetch_and_nbi(...) \
  SHOAL_G_SELECT_CTX(SHOAL_G_AMO_BIT_TYPES, atomic_fetch_and_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_or_nbi(...) \
  SHOAL_G_SELECT_CTX(SHOAL_G_AMO_BIT_TYPES, atomic_fetch_or_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_xor_nbi(...) \
  SHOAL_G_SELECT_CTX(SHOAL_G_AMO_BIT_TYPES, atomic_fetch_xor_nbi, __VA_ARGS__)

/* ---- point-to-point synchronization (no ctx forms) ---------------------- */
/* shmem_wait_until also names the long routine of OpenSHMEM 1.2; the macro
 * selects shmem_long_wait_until for long, the same thing. */
#define shmem_wait_until(...) SHOAL_G_SELECT(SHOAL_G_SYNC_TYPES, wait_until, __VA_ARGS__)
#define shmem_wait_until_all(...) SHOAL_G_SELECT(SHOAL_G_SYNC_TYPES, wait_until_all, __VA_ARGS__)
#define shmem_wait_until_any(...) SHOAL_G_SELECT(SHOAL_G_SYNC_TYPES, wait_until_any, __VA_ARGS__)
#define shmem_wait_until_some(...) SHOAL_G_SELECT(SHOAL_G_SYNC_TYPES, wait_until_some, __VA_ARGS__)
#define shmem_wait_until_all_vector(...) \
  SHOAL_G_SELECT(SHOAL_G_SYNC_TYPES, wait_until_all_vector, __VA_ARGS__)
#define shmem_wait_until_any_vector(...) \
  SHOAL_G_SELECT(SHOAL_G_SYNC_TYPES, wait_until_any_vector, __VA_ARGS__)
#define shmem_wait_until_some_vector(...) \
  SHOAL_G_SELECT(SHOAL_G_SYNC_TYPES, wait_until_some_vector, __VA_ARGS__)
#define shmem_test(...) SHOAL_G_SELECT(SHOAL_G_SYNC_TYPES, test, __VA_ARGS__)
#define shmem_test_all(...) SHOAL_G_SELECT(SHOAL_G_SYNC_TYPES, test_all, __VA_ARGS__)
#define shmem_test_any(...) SHOAL_G_SELECT(SHOAL_G_SYNC_TYPES, test_any, __VA_ARGS__)
#define shmem_test_some(...) SHOAL_G_SELECT(SHOAL_G_SYNC_TYPES, test_some, __VA_ARGS__)
#define shmem_test_all_vector(...) SHOAL_G_SELECT(SHOAL_G_SYNC_TYPES, test_all_vector, __VA_ARGS__)
#define shmem_test_any_vector(...) SHOAL_G_SELECT(SHOAL_G_SYNC_TYPES, test_any_vector, __VA_ARGS__)
#define shmem_test_some_vector(...) SHOAL_G_SELECT(SHOAL_G_SYNC_TYPES, test_some_vector, __VA_ARGS__)

/* ---- collectives -------------------------------------------------------- */
#define shmem_broadcast(...) SHOAL_G_SELECT_TEAM(SHOAL_G_RMA_TYPES, broadcast, __VA_ARGS__)
#define shmem_collect(...) SHOAL_G_SELECT_TEAM(SHOAL_G_RMA_TYPES, collect, __VA_ARGS__)
#define shmem_fcollect(...) SHOAL_G_SELECT_TEAM(SHOAL_G_RMA_TYPES, fcollect, __VA_ARGS__)
#define shmem_alltoall(...) SHOAL_G_SELECT_TEAM(SHOAL_G_RMA_TYPES, alltoall, __VA_ARGS__)
#define shmem_alltoalls(...) SHOAL_G_SELECT_TEAM(SHOAL_G_RMA_TYPES, alltoalls, __VA_ARGS__)
#define shmem_and_reduce(...) SHOAL_G_SELECT_TEAM(SHOAL_G_REDUCE_BIT_TYPES, and_reduce, __VA_ARGS__)
#define shmem_or_reduce(...) SHOAL_G_SELECT_TEAM(SHOAL_G_REDUCE_BIT_TYPES, or_reduce, __VA_ARGS__)
#define shmem_xor_reduce(...) SHOAL_G_SELECT_TEAM(SHOAL_G_REDUCE_BIT_TYPES, xor_reduce, __VA_ARGS__)
#define shmem_max_reduce(...) SHOAL_G_SELECT_TEAM(SHOAL_G_REDUCE_MINMAX_TYPES, max_reduce, __VA_ARGS__)
#define shmem_min_reduce(...) SHOAL_G_SELECT_TEAM(SHOAL_G_REDUCE_MINMAX_TYPES, min_reduce, __VA_ARGS__)
#define shmem_sum_reduce(...) SHOAL_G_SELECT_TEAM(SHOAL_G_REDUCE_ARITH_TYPES, sum_reduce, __VA_ARGS__)
#define shmem_prod_reduce(...) SHOAL_G_SELECT_TEAM(SHOAL_G_REDUCE_ARITH_TYPES, prod_reduce, __VA_ARGS__)

/* shmem_sync has two 1.5 forms, told apart by how many arguments a call
 * passes: shmem_sync(team) is the C11 generic name of shmem_team_sync;
 * shmem_sync(PE_start, logPE_stride, PE_size, pSync) is the deprecated
 * active-set routine of that name.  Any other count fails to compile. */
#define SHOAL_G_NARGS(...) SHOAL_G_NARGS_(__VA_ARGS__, 5, 4, 3, 2, 1, 0)
#define SHOAL_G_NARGS_(a1, a2, a3, a4, a5, n, ...) n
#define SHOAL_G_CAT(a, b) SHOAL_G_CAT_(a, b)
#define SHOAL_G_CAT_(a, b) a##b
#define SHOAL_G_SYNC_1 shmem_team_sync
#define SHOAL_G_SYNC_4 (shmem_sync)
#define shmem_sync(...) SHOAL_G_CAT(SHOAL_G_SYNC_, SHOAL_G_NARGS(__VA_ARGS__))(__VA_ARGS__)

/* ---- deprecated 1.4 AMO names ---------------------------------------------
 * shmem_swap also names the long routine of 1.2 (the macro selects
 * shmem_long_swap for long, the same thing). */
#define shmem_swap(...) SHOAL_G_SELECT(SHOAL_G_DEPR_EXT_TYPES, swap, __VA_ARGS__)
#define shmem_fetch(...) SHOAL_G_SELECT(SHOAL_G_DEPR_EXT_TYPES, fetch, __VA_ARGS__)
#define shmem_set(...) SHOAL_G_SELECT(SHOAL_G_DEPR_EXT_TYPES, set, __VA_ARGS__)
#define shmem_cswap(...) SHOAL_G_SELECT(SHOAL_G_DEPR_TYPES, cswap, __VA_ARGS__)
#define shmem_add(...) SHOAL_G_SELECT(SHOAL_G_DEPR_TYPES, add, __VA_ARGS__)
#define shmem_inc(...) SHOAL_G_SELECT(SHOAL_G_DEPR_TYPES, inc, __VA_ARGS__)
#define shmem_fadd(...) SHOAL_G_SELECT(SHOAL_G_DEPR_TYPES, fadd, __VA_ARGS__)
#define shmem_finc(...) SHOAL_G_SELECT(SHOAL_G_DEPR_TYPES, finc, __VA_ARGS__)

#endif
