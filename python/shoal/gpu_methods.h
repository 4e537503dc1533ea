/* _shoal's GPU methods (CUDA builds): wrappers over gpu_stream.cu.
 * Included by _shoal.c after its helpers. */
static PyObject *gpu_fail(const char *call)
{
  PyErr_Format(PyExc_RuntimeError, "shoal.%s: the GPU launch failed (see stderr)", call);
  return NULL;
}

/* gpu_reduce(team, dtype, op, dest, src, count, scatter, stream) */
static PyObject *py_gpu_reduce(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self;
  NARGS("gpu_reduce", 8);
  NEED_INIT("all_reduce");
  int dtype, op, scatter;
  void *d, *s, *st;
  size_t count;
  shmem_team_t t = arg_team(args[0]);
  if (PyErr_Occurred() || arg_int(args[1], &dtype) || arg_int(args[2], &op) || arg_ptr(args[3], &d) ||
      arg_ptr(args[4], &s) || arg_size(args[5], &count) || arg_int(args[6], &scatter) ||
      arg_ptr(args[7], &st))
    return NULL;
  int rc = shoal_py_gpu_reduce(t, dtype, op, d, s, count, scatter, st);
  if (rc == -2) {
    PyErr_SetString(PyExc_ValueError, "shoal: complex products on the GPU take tensors aligned to their element size");
    return NULL;
  }
  if (rc != 0) {
    /* as the host path says it: integers take every op, floats sum, prod,
     * min, max, complex sum and prod */
    PyErr_SetString(PyExc_TypeError, "shoal: this ReduceOp does not apply to this dtype");
    return NULL;
  }
  Py_RETURN_NONE;
}

/* gpu_move(which, team, dest, src, nbytes, root, stream) */
static PyObject *py_gpu_move(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self;
  NARGS("gpu_move", 7);
  NEED_INIT("collective");
  int which, root;
  void *d, *s, *st;
  size_t n;
  if (arg_int(args[0], &which)) return NULL;
  shmem_team_t t = arg_team(args[1]);
  if (PyErr_Occurred() || arg_ptr(args[2], &d) || arg_ptr(args[3], &s) || arg_size(args[4], &n) ||
      arg_int(args[5], &root) || arg_ptr(args[6], &st))
    return NULL;
  if (shoal_py_gpu_move(which, t, d, s, n, root, st) != 0) return gpu_fail("collective");
  Py_RETURN_NONE;
}

static PyObject *py_gpu_memcpy(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self;
  NARGS("gpu_memcpy", 4);
  void *d, *s, *st;
  size_t n;
  if (arg_ptr(args[0], &d) || arg_ptr(args[1], &s) || arg_size(args[2], &n) || arg_ptr(args[3], &st))
    return NULL;
  if (n && shoal_py_gpu_memcpy(d, s, n, st) != 0) return gpu_fail("copy");
  Py_RETURN_NONE;
}

static PyObject *py_gpu_device(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self, (void)args, (void)nargs;
  return PyLong_FromLong(shoal_py_gpu_device());
}

/* The fast all_reduce of CUDA tensors on the heap (fast_all_reduce): the
 * package registers how to get the current stream (shoal._stream) and its
 * GPU staging buffer whenever that grows. */
static PyObject *gpu_stream_fn;
static void *gpu_stage_addr;
static size_t gpu_stage_bytes;

/* set_gpu_fast((fn, device), stage_addr, stage_bytes): fn(device) gives
 * the current stream as an int (shoal._stream_query) */
static PyObject *py_set_gpu_fast(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
  (void)self;
  NARGS("set_gpu_fast", 3);
  void *a;
  size_t n;
  if (!PyTuple_Check(args[0]) || PyTuple_Size(args[0]) != 2) {
    PyErr_SetString(PyExc_TypeError, "set_gpu_fast: the stream query is a (fn, device) pair");
    return NULL;
  }
  if (arg_ptr(args[1], &a) || arg_size(args[2], &n)) return NULL;
  Py_XDECREF(gpu_stream_fn);
  Py_INCREF(args[0]);
  gpu_stream_fn = args[0];
  gpu_stage_addr = a;
  gpu_stage_bytes = n;
  Py_RETURN_NONE;
}

static PyObject *fast_gpu_all_reduce(PyObject *out, shmem_team_t t, const tinfo *o, const tinfo *i, int op)
{
  if (!gpu_stream_fn || i->nbytes > gpu_stage_bytes || !on_my_heap(o) || !on_my_heap(i))
    Py_RETURN_NOTIMPLEMENTED;   /* the package checks, explains, grows the staging */
  PyObject *s = PyObject_CallFunctionObjArgs(PyTuple_GetItem(gpu_stream_fn, 0), PyTuple_GetItem(gpu_stream_fn, 1), NULL);
  if (!s) return NULL;
  void *st = PyLong_AsVoidPtr(s);
  Py_DECREF(s);
  if (PyErr_Occurred()) return NULL;
  /* as the package's path: the input through staging, which peers read */
  if (i->nbytes && shoal_py_gpu_memcpy(gpu_stage_addr, i->addr, i->nbytes, st) != 0) return gpu_fail("all_reduce");
  if (shoal_py_gpu_reduce(t, o->dtype, op, o->addr, gpu_stage_addr, o->numel, 0, st) != 0)
    Py_RETURN_NOTIMPLEMENTED;   /* no kernel for this dtype and op: the package says so */
  Py_INCREF(out);
  return out;
}

#define GPU_METHODS \
  M("set_gpu_fast", py_set_gpu_fast, "(stream_fn, stage_addr, stage_bytes) for fast_all_reduce"), \
  M("gpu_reduce", py_gpu_reduce, "(team, dtype, op, dest, src, count, scatter, stream)"), \
  M("gpu_move", py_gpu_move, "(which, team, dest, src, nbytes, root, stream)"), \
  M("gpu_memcpy", py_gpu_memcpy, "(dest, src, nbytes, stream): cudaMemcpyAsync"), \
  M("gpu_malloc", py_malloc, "shmem_malloc: GPU memory in a GPU build"), \
  M("gpu_device", py_gpu_device, "this PE's GPU"),
