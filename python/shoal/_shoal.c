/* shoal._shoal: the C layer of the Python package, over Shoal's public C
 * API only.  Addresses travel as Python ints; shoal/__init__.py turns
 * NumPy arrays and torch tensors into them and checks placement.  Calls use
 * METH_FASTCALL and no keyword parsing: this is the per-call hot path.
 *
 * CPython's stable ABI (abi3) as of 3.11, the first with the buffer
 * protocol in it: one build, made with any 3.11+ headers, imports in every
 * CPython from 3.11 on (the GPU machine's 3.12 takes this machine's 3.11
 * build). */
#define Py_LIMITED_API 0x030b0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>   /* T_PYSSIZET, READONLY: __weaklistoffset__ */

#include <shmem.h>
#include <shmemx.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#ifdef SHOAL_PY_GPU
#include "gpu_stream.h"
#endif

/* ---- argument helpers --------------------------------------------------- */
static int arg_ptr(PyObject *o, void **out)
{
  *out = PyLong_AsVoidPtr(o);
  return (*out == NULL && PyErr_Occurred()) ? -1 : 0;
}
static int arg_size(PyObject *o, size_t *out)
{
  *out = PyLong_AsSize_t(o);
  return (*out == (size_t)-1 && PyErr_Occurred()) ? -1 : 0;
}
static int arg_int(PyObject *o, int *out)
{
  long v = PyLong_AsLong(o);
  if (v == -1 && PyErr_Occurred()) return -1;
  *out = (int)v;
  return 0;
}
static int nargs_ok(const char *name, Py_ssize_t n, Py_ssize_t want)
{
  if (n == want) return 0;
  PyErr_Format(PyExc_TypeError, "_shoal.%s takes %zd arguments (%zd given)", name, want, n);
  return -1;
}
#define NARGS(name, want) if (nargs_ok(name, nargs, want)) return NULL
static shmem_team_t arg_team(PyObject *o)
{
  return (shmem_team_t)PyLong_AsVoidPtr(o);
}

static int initialized;
static PyObject *not_init(const char *call)
{
  PyErr_Format(PyExc_RuntimeError, "shoal.%s: call shoal.init() first", call);
  return NULL;
}
#define NEED_INIT(call) if (!initialized) return not_init(call)

/* ---- setup ----------------------------------------------------------------- */
static PyObject *py_init(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self, (void)args, (void)nargs;
  if (initialized == 1) Py_RETURN_NONE;
  if (initialized == 2) {
    PyErr_SetString(PyExc_RuntimeError, "shoal.init: Shoal cannot start again after shoal.finalize");
    return NULL;
  }
  int provided;
  if (shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) != 0) {
    PyErr_SetString(PyExc_RuntimeError, "shoal.init: shmem_init_thread failed (see stderr)");
    return NULL;
  }
  initialized = 1;
  Py_RETURN_NONE;
}

static PyObject *py_init_uid(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self;
  NARGS("init_with_uniqueid", 3);
  Py_buffer b;
  int rank, n;
  if (PyObject_GetBuffer(args[0], &b, PyBUF_SIMPLE) != 0) return NULL;
  shmemx_uniqueid_t uid;
  if (b.len != (Py_ssize_t)sizeof uid) {
    PyBuffer_Release(&b);
    PyErr_Format(PyExc_ValueError, "shoal.init_with_uniqueid: argument 'uid' has %zd bytes, "
                 "not %zu: pass the bytes shoal.get_uniqueid() returned", b.len, sizeof uid);
    return NULL;
  }
  memcpy(&uid, b.buf, sizeof uid);
  PyBuffer_Release(&b);
  if (arg_int(args[1], &rank) || arg_int(args[2], &n)) return NULL;
  if (initialized) {
    PyErr_SetString(PyExc_RuntimeError, "shoal.init_with_uniqueid: Shoal is already initialized");
    return NULL;
  }
  if (shmemx_init_with_uniqueid(uid, rank, n) != 0) {
    PyErr_SetString(PyExc_RuntimeError, "shoal.init_with_uniqueid failed (see stderr)");
    return NULL;
  }
  initialized = 1;
  Py_RETURN_NONE;
}

static PyObject *py_get_uid(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self, (void)args, (void)nargs;
  shmemx_uniqueid_t uid;
  if (shmemx_get_uniqueid(&uid) != 0) {
    PyErr_SetString(PyExc_RuntimeError, "shoal.get_uniqueid failed (see stderr)");
    return NULL;
  }
  return PyBytes_FromStringAndSize((const char *)&uid, sizeof uid);
}

static PyObject *py_finalize(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self, (void)args, (void)nargs;
  if (initialized == 1) {
    shmem_finalize();
    initialized = 2;
  }
  Py_RETURN_NONE;
}

static PyObject *py_state(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self, (void)args, (void)nargs;
  return PyLong_FromLong(initialized);
}

static PyObject *py_my_pe(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self, (void)args, (void)nargs;
  NEED_INIT("my_pe");
  return PyLong_FromLong(shmem_my_pe());
}

static PyObject *py_n_pes(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self, (void)args, (void)nargs;
  NEED_INIT("n_pes");
  return PyLong_FromLong(shmem_n_pes());
}

static PyObject *py_build_config(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self, (void)args, (void)nargs;
  return PyUnicode_FromString(shmemx_build_config());
}

/* ---- memory ---------------------------------------------------------------- */
static PyObject *py_malloc(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self;
  NARGS("malloc", 1);
  NEED_INIT("empty");
  size_t n;
  if (arg_size(args[0], &n)) return NULL;
  void *p;
  Py_BEGIN_ALLOW_THREADS
  p = shmem_malloc(n ? n : 1);
  Py_END_ALLOW_THREADS
  if (!p) {
    PyErr_Format(PyExc_MemoryError, "shoal.empty: %zu bytes do not fit in the symmetric heap "
                 "(raise SHMEM_SYMMETRIC_SIZE, or free tensors with shoal.free)", n);
    return NULL;
  }
  return PyLong_FromVoidPtr(p);
}

static PyObject *py_free(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self;
  NARGS("free", 1);
  void *p;
  if (arg_ptr(args[0], &p)) return NULL;
  if (initialized != 1) Py_RETURN_NONE;   /* the heap went away with finalize */
  Py_BEGIN_ALLOW_THREADS
  shmem_free(p);
  Py_END_ALLOW_THREADS
  Py_RETURN_NONE;
}

static PyObject *py_accessible(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self;
  NARGS("accessible", 2);
  void *p;
  size_t n;
  if (arg_ptr(args[0], &p) || arg_size(args[1], &n)) return NULL;
  if (initialized != 1) Py_RETURN_FALSE;
  int me = shmem_my_pe();
  bool ok = shmem_addr_accessible(p, me) && (n == 0 || shmem_addr_accessible((char *)p + n - 1, me));
  return PyBool_FromLong(ok);
}

static PyObject *py_ptr(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self;
  NARGS("ptr", 2);
  NEED_INIT("ptr");
  void *p;
  int pe;
  if (arg_ptr(args[0], &p) || arg_int(args[1], &pe)) return NULL;
  return PyLong_FromVoidPtr(shmem_ptr(p, pe));
}

static PyObject *py_memcpy(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self;
  NARGS("memcpy", 3);
  void *d, *s;
  size_t n;
  if (arg_ptr(args[0], &d) || arg_ptr(args[1], &s) || arg_size(args[2], &n)) return NULL;
  if (n) memcpy(d, s, n);
  Py_RETURN_NONE;
}

/* A block of the symmetric heap as a Python object: NumPy and torch views
 * keep it alive, and its finalizer (in __init__.py) queues the collective
 * free.  Exposes the buffer protocol (CPU) or __cuda_array_interface__. */
typedef struct {
  PyObject_HEAD
  void *addr;
  Py_ssize_t nbytes;
  int device;            /* -1: host memory */
  PyObject *weakrefs;
} Buffer;

static int buffer_getbuffer(PyObject *o, Py_buffer *view, int flags)
{
  Buffer *b = (Buffer *)o;
  if (b->device >= 0) {
    PyErr_SetString(PyExc_BufferError, "shoal: a GPU block has no CPU buffer (use torch)");
    return -1;
  }
  return PyBuffer_FillInfo(view, o, b->addr, b->nbytes, 0, flags);
}

static int buffer_init(PyObject *o, PyObject *args, PyObject *kw)
{
  Buffer *b = (Buffer *)o;
  PyObject *addr;
  Py_ssize_t n;
  int device = -1;
  static char *names[] = {"addr", "nbytes", "device", NULL};
  if (!PyArg_ParseTupleAndKeywords(args, kw, "On|i", names, &addr, &n, &device)) return -1;
  b->addr = PyLong_AsVoidPtr(addr);
  if (PyErr_Occurred()) return -1;
  b->nbytes = n;
  b->device = device;
  return 0;
}

static void buffer_dealloc(PyObject *o)
{
  Buffer *b = (Buffer *)o;
  PyTypeObject *type = Py_TYPE(o);   /* a heap type: its instances own a reference */
  if (b->weakrefs) PyObject_ClearWeakRefs(o);
  ((freefunc)PyType_GetSlot(type, Py_tp_free))(o);
  Py_DECREF(type);
}

static PyObject *buffer_addr(PyObject *o, void *c)
{
  (void)c;
  return PyLong_FromVoidPtr(((Buffer *)o)->addr);
}
static PyObject *buffer_nbytes(PyObject *o, void *c)
{
  (void)c;
  return PyLong_FromSsize_t(((Buffer *)o)->nbytes);
}
static PyObject *buffer_cai(PyObject *o, void *c)
{
  (void)c;
  Buffer *b = (Buffer *)o;
  if (b->device < 0) {
    PyErr_SetString(PyExc_AttributeError, "__cuda_array_interface__ (host memory)");
    return NULL;
  }
  /* stream None: the producer has no work pending on any stream. */
  return Py_BuildValue("{s:(n),s:s,s:(N,O),s:i,s:O,s:O}", "shape", b->nbytes, "typestr", "|u1",
                       "data", PyLong_FromVoidPtr(b->addr), Py_False, "version", 2,
                       "strides", Py_None, "descr", Py_None);
}

static PyGetSetDef buffer_getset[] = {
    {"addr", buffer_addr, NULL, "address of the block", NULL},
    {"nbytes", buffer_nbytes, NULL, "bytes in the block", NULL},
    {"__cuda_array_interface__", buffer_cai, NULL, "GPU blocks: the CUDA array interface", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef buffer_members[] = {
    {"__weaklistoffset__", T_PYSSIZET, offsetof(Buffer, weakrefs), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

/* A heap type (PyType_FromSpec): the stable ABI has no static type objects. */
static PyType_Slot buffer_slots[] = {
    {Py_tp_doc, "A block of the symmetric heap (owned by shoal.empty's arrays and tensors)."},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_init, buffer_init},
    {Py_tp_dealloc, buffer_dealloc},
    {Py_tp_getset, buffer_getset},
    {Py_tp_members, buffer_members},
    {Py_bf_getbuffer, buffer_getbuffer},
    {0, NULL},
};
static PyType_Spec buffer_spec = {"shoal._shoal.Buffer", sizeof(Buffer), 0, Py_TPFLAGS_DEFAULT, buffer_slots};

/* ---- teams ----------------------------------------------------------------- */
static PyObject *py_team_world(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self, (void)args, (void)nargs;
  return PyLong_FromVoidPtr(SHMEM_TEAM_WORLD);
}

static PyObject *py_team_split(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self;
  NARGS("team_split_strided", 4);
  NEED_INIT("new_group");
  int start, stride, size;
  shmem_team_t parent = arg_team(args[0]);
  if (PyErr_Occurred() || arg_int(args[1], &start) || arg_int(args[2], &stride) ||
      arg_int(args[3], &size))
    return NULL;
  shmem_team_t t = SHMEM_TEAM_INVALID;
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = shmem_team_split_strided(parent, start, stride, size, NULL, 0, &t);
  Py_END_ALLOW_THREADS
  if (rc != 0) {
    PyErr_Format(PyExc_RuntimeError, "shoal.new_group: shmem_team_split_strided(start=%d, "
                 "stride=%d, size=%d) failed (see stderr; SHOAL_MAX_TEAMS limits live groups)",
                 start, stride, size);
    return NULL;
  }
  return PyLong_FromVoidPtr(t);
}

static PyObject *py_team_my_pe(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self;
  NARGS("team_my_pe", 1);
  shmem_team_t t = arg_team(args[0]);
  if (PyErr_Occurred()) return NULL;
  return PyLong_FromLong(shmem_team_my_pe(t));
}

static PyObject *py_team_n_pes(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self;
  NARGS("team_n_pes", 1);
  shmem_team_t t = arg_team(args[0]);
  if (PyErr_Occurred()) return NULL;
  return PyLong_FromLong(shmem_team_n_pes(t));
}

static PyObject *py_team_translate(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self;
  NARGS("team_translate_pe", 3);
  int pe;
  shmem_team_t a = arg_team(args[0]);
  if (PyErr_Occurred() || arg_int(args[1], &pe)) return NULL;
  shmem_team_t b = arg_team(args[2]);
  if (PyErr_Occurred()) return NULL;
  return PyLong_FromLong(shmem_team_translate_pe(a, pe, b));
}

static PyObject *py_team_destroy(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self;
  NARGS("team_destroy", 1);
  shmem_team_t t = arg_team(args[0]);
  if (PyErr_Occurred()) return NULL;
  if (initialized == 1 && t != SHMEM_TEAM_INVALID) shmem_team_destroy(t);
  Py_RETURN_NONE;
}

static PyObject *py_team_sync(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self;
  NARGS("team_sync", 1);
  NEED_INIT("barrier");
  shmem_team_t t = arg_team(args[0]);
  if (PyErr_Occurred()) return NULL;
  Py_BEGIN_ALLOW_THREADS
  shmem_quiet();   /* a barrier completes this PE's puts first */
  if (t == SHMEM_TEAM_WORLD) shmem_barrier_all();
  else shmem_team_sync(t);
  Py_END_ALLOW_THREADS
  Py_RETURN_NONE;
}

/* ---- collectives ------------------------------------------------------------- */
/* Reductions by dtype code (shoal/__init__.py's DTYPES) and ReduceOp
 * (SUM, PRODUCT, MIN, MAX, BAND, BOR, BXOR); NULL: not for that dtype. */
typedef int (*reduce_fn)(shmem_team_t, void *, const void *, size_t);
typedef void (*any_fn)(void);
#define F(name) ((any_fn)name)
#define NONE3 NULL, NULL, NULL
/* P: shmem or shmemx; S: reduce or reduce_scatter */
#define ARITH4(P, N, S) F(P##_##N##_sum_##S), F(P##_##N##_prod_##S), F(P##_##N##_min_##S), F(P##_##N##_max_##S)
#define BIT3(P, N, S) F(P##_##N##_and_##S), F(P##_##N##_or_##S), F(P##_##N##_xor_##S)
#define INTS(P, N, S) {ARITH4(P, N, S), BIT3(P, N, S)}
#define FLOATS(P, N, S) {ARITH4(P, N, S), NONE3}
#define COMPLEX(P, N, S) {F(P##_##N##_sum_##S), F(P##_##N##_prod_##S), NULL, NONE3}
#ifdef SHMEMX_HAVE_HALF
#define HALF(S) FLOATS(shmemx, half, S)
#else
#define HALF(S) {NULL, NULL, NULL, NULL, NONE3}
#endif
#define TABLE(P, S) \
  {INTS(P, int8, S), INTS(P, int16, S), INTS(P, int32, S), INTS(P, int64, S), \
   INTS(P, uint8, S), INTS(P, uint16, S), INTS(P, uint32, S), INTS(P, uint64, S), \
   FLOATS(P, float, S), FLOATS(P, double, S), HALF(S), FLOATS(shmemx, bfloat16, S), \
   COMPLEX(P, complexf, S), COMPLEX(P, complexd, S)}
enum { N_DTYPES = 14, N_OPS = 7 };
static const any_fn reduce_table[N_DTYPES][N_OPS] = TABLE(shmem, reduce);
static const any_fn reduce_scatter_table[N_DTYPES][N_OPS] = TABLE(shmemx, reduce_scatter);

/* reduce(team, dtype, op, dest, src, count, scatter) */
static PyObject *py_reduce(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self;
  NARGS("reduce", 7);
  NEED_INIT("all_reduce");
  int dtype, op, scatter;
  void *d, *s;
  size_t count;
  shmem_team_t t = arg_team(args[0]);
  if (PyErr_Occurred() || arg_int(args[1], &dtype) || arg_int(args[2], &op) || arg_ptr(args[3], &d) ||
      arg_ptr(args[4], &s) || arg_size(args[5], &count) || arg_int(args[6], &scatter))
    return NULL;
  if (dtype < 0 || dtype >= N_DTYPES || op < 0 || op >= N_OPS ||
      !(scatter ? reduce_scatter_table : reduce_table)[dtype][op]) {
    PyErr_SetString(PyExc_TypeError, "shoal: this ReduceOp does not apply to this dtype");
    return NULL;
  }
  reduce_fn f = (reduce_fn)(scatter ? reduce_scatter_table : reduce_table)[dtype][op];
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = f(t, d, s, count);
  Py_END_ALLOW_THREADS
  if (rc != 0) {
    PyErr_SetString(PyExc_RuntimeError, "shoal: the reduction failed (see stderr)");
    return NULL;
  }
  Py_RETURN_NONE;
}

/* move(which, team, dest, src, nbytes, root): 0 broadcast, 1 fcollect, 2 alltoall */
static PyObject *py_move(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self;
  NARGS("move", 6);
  NEED_INIT("collective");
  int which, root;
  void *d, *s;
  size_t n;
  if (arg_int(args[0], &which)) return NULL;
  shmem_team_t t = arg_team(args[1]);
  if (PyErr_Occurred() || arg_ptr(args[2], &d) || arg_ptr(args[3], &s) || arg_size(args[4], &n) ||
      arg_int(args[5], &root))
    return NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = which == 0 ? shmem_broadcastmem(t, d, s, n, root)
     : which == 1 ? shmem_fcollectmem(t, d, s, n)
                  : shmem_alltoallmem(t, d, s, n);
  Py_END_ALLOW_THREADS
  if (rc != 0) {
    PyErr_SetString(PyExc_RuntimeError, "shoal: the collective failed (see stderr)");
    return NULL;
  }
  Py_RETURN_NONE;
}

/* ---- the fast path ---------------------------------------------------------------- */
/* The symmetric staging buffer collectives copy inputs into, grown
 * collectively (sizes are the same on every PE, as collectives require). */
static void *stage_addr;
static size_t stage_bytes;

static void *stage(size_t nbytes)
{
  if (nbytes <= stage_bytes) return stage_addr;
  size_t size = nbytes < (1u << 16) ? (1u << 16) : nbytes;
  void *p;
  Py_BEGIN_ALLOW_THREADS
  if (stage_addr) shmem_free(stage_addr);
  p = shmem_malloc(size);
  Py_END_ALLOW_THREADS
  stage_addr = p;
  stage_bytes = p ? size : 0;
  if (!p) PyErr_Format(PyExc_MemoryError, "shoal: %zu bytes of staging do not fit in the "
                       "symmetric heap (raise SHMEM_SYMMETRIC_SIZE)", nbytes);
  return p;
}

static PyObject *py_stage(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self;
  NARGS("stage", 1);
  NEED_INIT("stage");
  size_t n;
  if (arg_size(args[0], &n)) return NULL;
  void *p = stage(n);
  return p ? PyLong_FromVoidPtr(p) : NULL;
}

/* What the fast path needs of an array: host memory, C-contiguous, a dtype
 * of the tables.  Returns 1 with *ti filled, 0 for "take the Python path"
 * (which explains any error), -1 on a Python error. */
typedef struct {
  void *addr;
  size_t nbytes, numel;
  int dtype;
  bool cuda;   /* a torch CUDA tensor */
} tinfo;
static PyObject *torch_dtypes;   /* {torch.dtype: code}, set by __init__.py */
static PyObject *s_data_ptr, *s_numel, *s_element_size, *s_is_contiguous, *s_is_cuda, *s_dtype;

static int format_code(const char *f, Py_ssize_t itemsize)
{
  while (*f == '@' || *f == '=' || *f == '<') f++;
  switch (f[0]) {
  case 'b': return 0;
  case 'h': return 1;
  case 'i': return itemsize == 4 ? 2 : -1;
  case 'l': case 'q': return itemsize == 8 ? 3 : -1;
  case 'B': return 4;
  case 'H': return 5;
  case 'I': return itemsize == 4 ? 6 : -1;
  case 'L': case 'Q': return itemsize == 8 ? 7 : -1;
  case 'f': return 8;
  case 'd': return 9;
  case 'e': return 10;
  case 'Z': return f[1] == 'f' ? 12 : f[1] == 'd' ? 13 : -1;
  default: return -1;
  }
}

static int fast_info(PyObject *o, tinfo *ti)
{
  if (PyObject_CheckBuffer(o)) {
    Py_buffer b;
    if (PyObject_GetBuffer(o, &b, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) != 0) {
      PyErr_Clear();
      return 0;
    }
    int code = b.format ? format_code(b.format, b.itemsize) : -1;
    ti->addr = b.buf;
    ti->nbytes = (size_t)b.len;
    ti->numel = b.itemsize ? (size_t)(b.len / b.itemsize) : 0;
    ti->dtype = code;
    ti->cuda = false;
    PyBuffer_Release(&b);
    return code >= 0;
  }
  if (!torch_dtypes) return 0;
  PyObject *dt = PyObject_GetAttr(o, s_dtype);
  if (!dt) { PyErr_Clear(); return 0; }
  PyObject *code = PyDict_GetItem(torch_dtypes, dt);   /* borrowed */
  Py_DECREF(dt);
  if (!code) return 0;
  PyObject *cuda = PyObject_GetAttr(o, s_is_cuda);
  if (!cuda) { PyErr_Clear(); return 0; }
  int on_gpu = PyObject_IsTrue(cuda);
  Py_DECREF(cuda);
  if (on_gpu < 0) { PyErr_Clear(); return 0; }
  ti->cuda = on_gpu != 0;
  PyObject *contig = PyObject_CallMethodObjArgs(o, s_is_contiguous, NULL);
  if (!contig) return -1;
  int c = PyObject_IsTrue(contig);
  Py_DECREF(contig);
  if (c != 1) return 0;
  /* bytes per element of each dtype code (shoal/__init__.py's _DTYPES) */
  static const unsigned char code_size[14] = {1, 2, 4, 8, 1, 2, 4, 8, 4, 8, 2, 2, 8, 16};
  long dc = PyLong_AsLong(code);
  if (dc < 0 || dc >= 14) { PyErr_Clear(); return 0; }
  PyObject *p = PyObject_CallMethodObjArgs(o, s_data_ptr, NULL);
  PyObject *n = p ? PyObject_CallMethodObjArgs(o, s_numel, NULL) : NULL;
  int ok = n != NULL;
  if (ok) {
    ti->addr = PyLong_AsVoidPtr(p);
    ti->numel = PyLong_AsSize_t(n);
    ti->nbytes = ti->numel * code_size[dc];
    ti->dtype = (int)dc;
    ok = !PyErr_Occurred();
  }
  Py_XDECREF(p);
  Py_XDECREF(n);
  return ok ? 1 : -1;
}

static bool on_my_heap(const tinfo *t)
{
  int me = shmem_my_pe();
  return shmem_addr_accessible(t->addr, me) &&
         (t->nbytes == 0 || shmem_addr_accessible((char *)t->addr + t->nbytes - 1, me));
}

#ifdef SHOAL_PY_GPU
static PyObject *fast_gpu_all_reduce(PyObject *out, shmem_team_t t, const tinfo *o, const tinfo *i, int op);
#endif

/* all_reduce(out, inp, op, team) for the common case: host arrays of one
 * dtype and size, both on the heap.  Returns NotImplemented for anything
 * else; shoal/__init__.py then checks, explains and handles it. */
static PyObject *py_fast_all_reduce(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self;
  NARGS("fast_all_reduce", 4);
  if (initialized != 1) Py_RETURN_NOTIMPLEMENTED;
  tinfo o, i;
  int r = fast_info(args[0], &o);
  if (r <= 0) { if (r < 0) return NULL; Py_RETURN_NOTIMPLEMENTED; }
  if (args[1] == Py_None || args[1] == args[0]) i = o;
  else if ((r = fast_info(args[1], &i)) <= 0) { if (r < 0) return NULL; Py_RETURN_NOTIMPLEMENTED; }
  long op = PyLong_AsLong(args[2]);
  if (op == -1 && PyErr_Occurred()) { PyErr_Clear(); Py_RETURN_NOTIMPLEMENTED; }
  shmem_team_t t = args[3] == Py_None ? SHMEM_TEAM_WORLD : arg_team(args[3]);
  if (PyErr_Occurred()) { PyErr_Clear(); Py_RETURN_NOTIMPLEMENTED; }
  if (op < 0 || op >= N_OPS || o.dtype != i.dtype || o.numel != i.numel || !t || o.cuda != i.cuda)
    Py_RETURN_NOTIMPLEMENTED;
  if (o.cuda) {   /* enqueued on the current stream: gpu_methods.h */
#ifdef SHOAL_PY_GPU
    return fast_gpu_all_reduce(args[0], t, &o, &i, (int)op);
#else
    Py_RETURN_NOTIMPLEMENTED;
#endif
  }
  if (!reduce_table[o.dtype][op] || !on_my_heap(&o) || !on_my_heap(&i)) Py_RETURN_NOTIMPLEMENTED;
  void *st = stage(i.nbytes);
  if (!st) return NULL;
  memcpy(st, i.addr, i.nbytes);
  reduce_fn f = (reduce_fn)reduce_table[o.dtype][op];
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = f(t, o.addr, st, o.numel);
  Py_END_ALLOW_THREADS
  if (rc != 0) {
    PyErr_SetString(PyExc_RuntimeError, "shoal.all_reduce: the reduction failed (see stderr)");
    return NULL;
  }
  Py_INCREF(args[0]);
  return args[0];
}

static PyObject *py_set_torch_dtypes(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self;
  NARGS("set_torch_dtypes", 1);
  Py_XDECREF(torch_dtypes);
  Py_INCREF(args[0]);
  torch_dtypes = args[0];
  Py_RETURN_NONE;
}

/* ---- point to point ------------------------------------------------------------ */
static PyObject *py_putget(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self;
  NARGS("putget", 5);
  NEED_INIT("put");
  int get, pe;
  void *d, *s;
  size_t n;
  if (arg_int(args[0], &get) || arg_ptr(args[1], &d) || arg_ptr(args[2], &s) ||
      arg_size(args[3], &n) || arg_int(args[4], &pe))
    return NULL;
  Py_BEGIN_ALLOW_THREADS
  if (get) shmem_getmem(d, s, n, pe);
  else shmem_putmem(d, s, n, pe);
  Py_END_ALLOW_THREADS
  Py_RETURN_NONE;
}

/* put_signal(dest, src, nbytes, sig_addr, signal, sig_op, pe) */
static PyObject *py_put_signal(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self;
  NARGS("put_signal", 7);
  NEED_INIT("put_signal");
  void *d, *s, *sig;
  size_t n;
  int op, pe;
  if (arg_ptr(args[0], &d) || arg_ptr(args[1], &s) || arg_size(args[2], &n) || arg_ptr(args[3], &sig))
    return NULL;
  uint64_t v = PyLong_AsUnsignedLongLong(args[4]);
  if (PyErr_Occurred() || arg_int(args[5], &op) || arg_int(args[6], &pe)) return NULL;
  Py_BEGIN_ALLOW_THREADS
  shmem_putmem_signal(d, s, n, (uint64_t *)sig, v, op, pe);
  Py_END_ALLOW_THREADS
  Py_RETURN_NONE;
}

static PyObject *py_signal_wait(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self;
  NARGS("signal_wait_until", 3);
  NEED_INIT("signal_wait_until");
  void *sig;
  int cmp;
  if (arg_ptr(args[0], &sig) || arg_int(args[1], &cmp)) return NULL;
  uint64_t v = PyLong_AsUnsignedLongLong(args[2]), got;
  if (PyErr_Occurred()) return NULL;
  Py_BEGIN_ALLOW_THREADS
  got = shmem_signal_wait_until((uint64_t *)sig, cmp, v);
  Py_END_ALLOW_THREADS
  return PyLong_FromUnsignedLongLong(got);
}

static PyObject *py_quiet(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self, (void)args;
  NEED_INIT("quiet");
  if (nargs) shmem_fence();
  else shmem_quiet();
  Py_RETURN_NONE;
}

/* atomic(op, dtype, addr, value, cond, pe) -> old value or None.
 * op: 0 fetch, 1 set, 2 swap, 3 compare_swap, 4 fetch_add, 5 add, 6 fetch_and,
 * 7 and, 8 fetch_or, 9 or, 10 fetch_xor, 11 xor.
 * dtype: 2 int32, 3 int64, 6 uint32, 7 uint64, 8 float, 9 double. */
#define AMO_INT(T, N, CONV, BACK) \
  { \
    T *a = addr, v = (T)CONV(value), c = (T)CONV(cond), r = 0; \
    if (PyErr_Occurred()) return NULL; \
    bool fetched = true; \
    Py_BEGIN_ALLOW_THREADS \
    switch (op) { \
    case 0: r = shmem_##N##_atomic_fetch(a, pe); break; \
    case 1: shmem_##N##_atomic_set(a, v, pe); fetched = false; break; \
    case 2: r = shmem_##N##_atomic_swap(a, v, pe); break; \
    case 3: r = shmem_##N##_atomic_compare_swap(a, c, v, pe); break; \
    case 4: r = shmem_##N##_atomic_fetch_add(a, v, pe); break; \
    case 5: shmem_##N##_atomic_add(a, v, pe); fetched = false; break; \
    case 6: r = shmem_##N##_atomic_fetch_and(a, v, pe); break; \
    case 7: shmem_##N##_atomic_and(a, v, pe); fetched = false; break; \
    case 8: r = shmem_##N##_atomic_fetch_or(a, v, pe); break; \
    case 9: shmem_##N##_atomic_or(a, v, pe); fetched = false; break; \
    case 10: r = shmem_##N##_atomic_fetch_xor(a, v, pe); break; \
    default: shmem_##N##_atomic_xor(a, v, pe); fetched = false; break; \
    } \
    Py_END_ALLOW_THREADS \
    if (!fetched) Py_RETURN_NONE; \
    return BACK(r); \
  }
#define AMO_FLOAT(T, N) \
  { \
    T *a = addr, v = (T)PyFloat_AsDouble(value), r = 0; \
    if (PyErr_Occurred()) return NULL; \
    if (op > 2) goto bad; \
    Py_BEGIN_ALLOW_THREADS \
    if (op == 0) r = shmem_##N##_atomic_fetch(a, pe); \
    else if (op == 1) shmem_##N##_atomic_set(a, v, pe); \
    else r = shmem_##N##_atomic_swap(a, v, pe); \
    Py_END_ALLOW_THREADS \
    if (op == 1) Py_RETURN_NONE; \
    return PyFloat_FromDouble((double)r); \
  }
static PyObject *py_atomic(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self;
  NARGS("atomic", 6);
  NEED_INIT("atomic");
  int op, dtype, pe;
  void *addr;
  if (arg_int(args[0], &op) || arg_int(args[1], &dtype) || arg_ptr(args[2], &addr) ||
      arg_int(args[5], &pe))
    return NULL;
  PyObject *value = args[3], *cond = args[4];
  if (op < 0 || op > 11) goto bad;
  switch (dtype) {
  case 2: AMO_INT(int32_t, int32, PyLong_AsLongLong, PyLong_FromLongLong)
  case 3: AMO_INT(int64_t, int64, PyLong_AsLongLong, PyLong_FromLongLong)
  case 6: AMO_INT(uint32_t, uint32, PyLong_AsUnsignedLongLongMask, PyLong_FromUnsignedLongLong)
  case 7: AMO_INT(uint64_t, uint64, PyLong_AsUnsignedLongLongMask, PyLong_FromUnsignedLongLong)
  case 8: AMO_FLOAT(float, float)
  case 9: AMO_FLOAT(double, double)
  default: break;
  }
bad:
  PyErr_SetString(PyExc_TypeError, "shoal: atomics take int32, int64, uint32, uint64 (every "
                   "operation) or float32, float64 (fetch, set, swap)");
  return NULL;
}

#ifdef SHOAL_PY_GPU
#include "gpu_methods.h"
#else
static PyObject *py_gpu_device(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self, (void)args, (void)nargs;
  return PyLong_FromLong(-1);   /* a CPU build */
}
#define GPU_METHODS M("gpu_device", py_gpu_device, "this PE's GPU, -1 in a CPU build"),
#endif

static PyMethodDef methods[] = {
#define M(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
    M("init", py_init, "shmem_init"),
    M("init_with_uniqueid", py_init_uid, "shmemx_init_with_uniqueid(uid bytes, rank, nranks)"),
    M("get_uniqueid", py_get_uid, "shmemx_get_uniqueid -> bytes"),
    M("finalize", py_finalize, "shmem_finalize"),
    M("state", py_state, "0 before init, 1 running, 2 finalized"),
    M("my_pe", py_my_pe, "shmem_my_pe"),
    M("n_pes", py_n_pes, "shmem_n_pes"),
    M("build_config", py_build_config, "shmemx_build_config"),
    M("malloc", py_malloc, "shmem_malloc(nbytes) -> address"),
    M("free", py_free, "shmem_free(address)"),
    M("accessible", py_accessible, "(address, nbytes): on this PE's symmetric heap"),
    M("ptr", py_ptr, "shmem_ptr(address, pe) -> address or 0"),
    M("memcpy", py_memcpy, "memcpy(dest, src, nbytes) on host memory"),
    M("team_world", py_team_world, "SHMEM_TEAM_WORLD"),
    M("team_split_strided", py_team_split, "(parent, start, stride, size) -> team or 0"),
    M("team_my_pe", py_team_my_pe, "shmem_team_my_pe"),
    M("team_n_pes", py_team_n_pes, "shmem_team_n_pes"),
    M("team_translate_pe", py_team_translate, "shmem_team_translate_pe"),
    M("team_destroy", py_team_destroy, "shmem_team_destroy"),
    M("team_sync", py_team_sync, "quiet, then a barrier of the team"),
    M("reduce", py_reduce, "(team, dtype, op, dest, src, count, scatter)"),
    M("move", py_move, "(which, team, dest, src, nbytes, root): broadcast, fcollect, alltoall"),
    M("putget", py_putget, "(get, dest, src, nbytes, pe)"),
    M("put_signal", py_put_signal, "(dest, src, nbytes, sig_addr, signal, sig_op, pe)"),
    M("signal_wait_until", py_signal_wait, "(sig_addr, cmp, value) -> value"),
    M("quiet", py_quiet, "shmem_quiet (with an argument: shmem_fence)"),
    M("atomic", py_atomic, "(op, dtype, addr, value, cond, pe)"),
    M("stage", py_stage, "(nbytes) -> the symmetric staging buffer, grown collectively"),
    M("fast_all_reduce", py_fast_all_reduce, "(out, inp, op, team) or NotImplemented"),
    M("set_torch_dtypes", py_set_torch_dtypes, "{torch.dtype: dtype code} for the fast path"),
    GPU_METHODS
#undef M
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_shoal", "Shoal's C layer", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__shoal(void)
{
#ifdef SHOAL_PY_UNSUPPORTED_GPU
  PyErr_SetString(PyExc_ImportError, "shoal: this Shoal is a HIP build, and the Python package "
                  "supports CPU and CUDA builds only (yet)");
  return NULL;
#endif
  s_data_ptr = PyUnicode_InternFromString("data_ptr");
  s_numel = PyUnicode_InternFromString("numel");
  s_element_size = PyUnicode_InternFromString("element_size");
  s_is_contiguous = PyUnicode_InternFromString("is_contiguous");
  s_is_cuda = PyUnicode_InternFromString("is_cuda");
  s_dtype = PyUnicode_InternFromString("dtype");
  PyObject *m = PyModule_Create(&module);
  if (!m) return NULL;
  PyObject *buffer_type = PyType_FromSpec(&buffer_spec);
  if (!buffer_type || PyModule_AddObjectRef(m, "Buffer", buffer_type) < 0) {
    Py_XDECREF(buffer_type);
    Py_DECREF(m);
    return NULL;
  }
  Py_DECREF(buffer_type);
#ifdef SHOAL_PY_GPU
  PyModule_AddIntConstant(m, "gpu", 1);
#else
  PyModule_AddIntConstant(m, "gpu", 0);
#endif
#ifdef SHMEMX_HAVE_HALF
  PyModule_AddIntConstant(m, "have_half", 1);
#else
  PyModule_AddIntConstant(m, "have_half", 0);
#endif
  return m;
}
