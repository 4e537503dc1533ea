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
  if (shoal_py_gpu_reduce(t, dtype, op, d, s, count, scatter, st) != 0) {
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

#define GPU_METHODS \
  M("gpu_reduce", py_gpu_reduce, "(team, dtype, op, dest, src, count, scatter, stream)"), \
  M("gpu_move", py_gpu_move, "(which, team, dest, src, nbytes, root, stream)"), \
  M("gpu_memcpy", py_gpu_memcpy, "(dest, src, nbytes, stream): cudaMemcpyAsync"), \
  M("gpu_malloc", py_malloc, "shmem_malloc: GPU memory in a GPU build"), \
  M("gpu_device", py_gpu_device, "this PE's GPU"),
