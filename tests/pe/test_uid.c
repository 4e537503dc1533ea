/* Unique-id start: rank 0 makes the id and hands it over through a file
 * (as a program would with MPI_Bcast), every rank starts with
 * shmemx_init_with_uniqueid, then a ring of puts of fresh random data and a
 * sum reduction check the job is whole.  Rank and size come from RANK /
 * WORLD_SIZE (tests/env-run.sh) or from Open MPI's mpirun. */
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int env_int(const char *a, const char *b)
{
  const char *v = getenv(a);
  if (!v) v = getenv(b);
  return v ? atoi(v) : -1;
}

#define CHECK(c, ...) do { if (!(c)) { fprintf(stderr, "test_uid: FAIL: " __VA_ARGS__); \
  fprintf(stderr, "\n"); exit(1); } } while (0)

int main(int argc, char **argv)
{
  int rank = env_int("RANK", "OMPI_COMM_WORLD_RANK");
  int n = env_int("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE");
  if (rank < 0 || n < 1) { rank = 0; n = 1; }
  char path[512];
  snprintf(path, sizeof path, "%s", argc > 1 ? argv[1] : "");
  if (!*path) {
    const char *port = getenv("MASTER_PORT"), *job = getenv("OMPI_MCA_ess_base_jobid");
    snprintf(path, sizeof path, "/tmp/shoal-test-uid-%s-%s-%d", port ? port : "x",
             job ? job : "x", (int)getuid());
  }

  /* A garbage id is refused with a message, not a hang. */
  shmemx_uniqueid_t bad;
  memset(&bad, 0x5a, sizeof bad);
  CHECK(shmemx_init_with_uniqueid(bad, 0, 1) == -1, "a garbage uid was accepted");
  CHECK(shmemx_get_uniqueid(NULL) == -1, "a NULL uid was accepted");

  shmemx_uniqueid_t uid;
  if (rank == 0) {
    CHECK(shmemx_get_uniqueid(&uid) == 0, "shmemx_get_uniqueid failed");
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    CHECK(f && fwrite(&uid, sizeof uid, 1, f) == 1 && fclose(f) == 0, "writing %s", tmp);
    CHECK(rename(tmp, path) == 0, "renaming to %s", path);
  } else {
    FILE *f = NULL;
    for (int i = 0; i < 60000 && !(f = fopen(path, "rb")); i++) usleep(1000);
    CHECK(f && fread(&uid, sizeof uid, 1, f) == 1, "reading %s", path);
    fclose(f);
  }
  CHECK(shmemx_init_with_uniqueid(uid, rank, n) == 0, "shmemx_init_with_uniqueid failed");
  if (rank == 0) unlink(path);
  CHECK(shmem_my_pe() == rank && shmem_n_pes() == n, "PE %d of %d, wanted %d of %d",
        shmem_my_pe(), shmem_n_pes(), rank, n);

  enum { N = 1000 };
  long *dst = shmem_malloc(N * sizeof(long)), *sum = shmem_malloc(N * sizeof(long));
  long *src = shmem_malloc(N * sizeof(long)), mine[N];
  srand((unsigned)time(NULL) ^ (unsigned)rank * 7919u);
  static long seed;
  seed = rand() % 100000 + 1;
  shmem_long_broadcast(SHMEM_TEAM_WORLD, &seed, &seed, 1, 0);
  for (int i = 0; i < N; i++) {
    mine[i] = (seed * 31 + rank * 1000003L + i * 17) % 1000000;
    dst[i] = -1;
    src[i] = mine[i];
  }
  shmem_barrier_all();
  shmem_long_put(dst, mine, N, (rank + 1) % n);
  shmem_barrier_all();
  int from = (rank + n - 1) % n;
  for (int i = 0; i < N; i++)
    CHECK(dst[i] == (seed * 31 + from * 1000003L + i * 17) % 1000000, "put element %d", i);
  shmem_long_sum_reduce(SHMEM_TEAM_WORLD, sum, src, N);
  for (int i = 0; i < N; i++) {
    long want = 0;
    for (int r = 0; r < n; r++) want += (seed * 31 + r * 1000003L + i * 17) % 1000000;
    CHECK(sum[i] == want, "sum element %d: %ld, wanted %ld", i, sum[i], want);
  }
  shmem_finalize();
  if (rank == 0) printf("test_uid: ok at %d PEs\n", n);
  return 0;
}
