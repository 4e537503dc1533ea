/* No relocatable device code: three kernel files linked into the program
 * and one in a shared library, each compiled with plain nvcc.  Each unit's
 * kernel puts into the next PE; every value must arrive, proving that the
 * runtime filled every unit's device state (and a unit dlopen'ed after
 * shmem_init, when the library's path is given as argv[1]). */
#include "gpu_test.h"
#include <dlfcn.h>

extern "C" int launch_a(int *buf, int slot, int value);
extern "C" int launch_b(int *buf, int slot, int value);
extern "C" int launch_lib(int *buf, int slot, int value);

__global__ void k_main(int *buf, int slot, int value)
{
  shmem_int_p(buf + slot, value, (shmem_my_pe() + 1) % shmem_n_pes());
}

int main(int argc, char **argv)
{
  gt_init();
  int me = shmem_my_pe(), np = shmem_n_pes(), prev = (me + np - 1) % np;
  int *buf = (int *)shmem_malloc(8 * sizeof(int));
  GT_CUDA(cudaMemset(buf, 0, 8 * sizeof(int)));
  shmem_barrier_all();
  int v = (int)(gt_val(gt_seed, me, 0, 1) & 0xffffff);
  k_main<<<1, 1>>>(buf, 0, v + 0);
  GT_LAUNCHED();
  GT_CHECK(launch_a(buf, 1, v + 1) == 0, "unit a failed");
  GT_CHECK(launch_b(buf, 2, v + 2) == 0, "unit b failed");
  GT_CHECK(launch_lib(buf, 3, v + 3) == 0, "shared library unit failed");
  int slots = 4;
  if (argc > 1) {   /* a unit loaded after shmem_init */
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    GT_CHECK(h != NULL, "dlopen %s: %s", argv[1], dlerror());
    if (h) {
      int (*f)(int *, int, int) = (int (*)(int *, int, int))dlsym(h, "launch_dl");
      GT_CHECK(f && f(buf, 4, v + 4) == 0, "dlopened unit failed");
      slots = 5;
    }
  }
  shmem_barrier_all();
  int pv = (int)(gt_val(gt_seed, prev, 0, 1) & 0xffffff);
  int h[8];
  GT_CUDA(cudaMemcpy(h, buf, sizeof h, cudaMemcpyDeviceToHost));
  for (int s = 0; s < slots; s++) GT_CHECK(h[s] == pv + s, "unit %d: got %d, expected %d", s, h[s], pv + s);
  shmem_free(buf);
  return gt_finish("test_multi_tu");
}
