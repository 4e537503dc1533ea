/* shoal-info: what this Shoal was built with and what it will read from
 * the environment.  Runs without shmem_init and without a launcher. */
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "key=value" from the build configuration string, or "?". */
static const char *config_value(const char *config, const char *key, char *buf, size_t len)
{
  size_t klen = strlen(key);
  for (const char *p = config; (p = strstr(p, key)) != NULL; p += klen) {
    if ((p == config || p[-1] == ' ') && p[klen] == '=') {
      const char *v = p + klen + 1;
      size_t n = strcspn(v, " ");
      if (n >= len) n = len - 1;
      memcpy(buf, v, n);
      buf[n] = '\0';
      return buf;
    }
  }
  return "?";
}

static void usage(FILE *f)
{
  fprintf(f, "usage: shoal-info [--env | --config | --help]\n"
             "  (no option)  version, build options, transports and environment\n"
             "  --env        only the environment variables\n"
             "  --config     only the build configuration string\n");
}

static void print_env(void)
{
  printf("Environment variables (current value, or the default when unset):\n");
  printf("  %-22s %-12s %-12s %s\n", "NAME", "CURRENT", "DEFAULT", "MEANING");
  const char *name, *def, *help;
  for (int i = 0; shmemx_info_env(i, &name, &def, &help) == 0; i++) {
    const char *cur = getenv(name);
    printf("  %-22s %-12s %-12s %s\n", name, cur && *cur ? cur : "(unset)", def, help);
  }
}

int main(int argc, char **argv)
{
  const char *config = shmemx_build_config();
  if (argc > 1) {
    if (!strcmp(argv[1], "--env")) { print_env(); return 0; }
    if (!strcmp(argv[1], "--config")) { printf("%s\n", config); return 0; }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) { usage(stdout); return 0; }
    fprintf(stderr, "shoal-info: unknown option '%s'\n", argv[1]);
    usage(stderr);
    return 2;
  }

  int major, minor;
  char name[SHMEM_MAX_NAME_LEN], buf[64];
  shmem_info_get_version(&major, &minor);
  shmem_info_get_name(name);
  printf("Library:        %s\n", name);
  printf("OpenSHMEM:      %d.%d\n", major, minor);
  printf("Build options:  %s\n", config);
  printf("Transports:\n");
  printf("  load/store    yes (PEs of one node map each other's heaps: POSIX shared memory)\n");
  printf("  libfabric     %s (PEs on other nodes, or SHOAL_TRANSPORT=ofi)\n",
         config_value(config, "ofi", buf, sizeof buf));
  printf("  host proxy    %s (GPU kernels reach PEs on other nodes through it; SHOAL_TRANSPORT=proxy\n"
         "                for the CPU API): active messages over libfabric RDM (FI_MSG, FI_ORDER_SAS);\n"
         "                puts/gets between GPU heaps zero-copy where the provider offers FI_HMEM\n"
         "                with RMA (SHOAL_PROXY_HMEM=0: always staged through pinned host buffers);\n"
         "                SHMEM_DEBUG=1 names the provider, FI_HMEM support and each peer's path\n",
         config_value(config, "proxy", buf, sizeof buf));
  printf("Bootstrap:      PMIx %s (without a launcher a program runs as one PE)\n",
         config_value(config, "pmix", buf, sizeof buf));
  printf("                env: RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT (torchrun)\n");
#ifdef SHOAL_PYTHONPATH
  printf("Python:         PYTHONPATH=%s (import shoal)\n", SHOAL_PYTHONPATH);
#else
  printf("Python:         not built (configure found no Python headers)\n");
#endif
  printf("\n");
  print_env();
  return 0;
}
