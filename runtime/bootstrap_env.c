/* Bootstrap from the environment torchrun (and Kubernetes operators) set:
 * RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT, or from a unique id
 * (shmemx_init_with_uniqueid).  A small TCP rendezvous, no MPI: rank 0
 * listens, every other rank keeps one connection to it, and an all-gather
 * is "send mine to rank 0, receive everything back".  Barrier is a one-byte
 * all-gather.  Every wait is bounded by SHOAL_BOOTSTRAP_TIMEOUT. */
#include "internal.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define UID_MAGIC 0x53484f414c554944ull   /* "SHOALUID" */
#define HELLO_MAGIC 0x53484f414c42544full  /* "SHOALBTO" */

/* What a unique id carries: where rank 0 listens, and a job nonce. */
typedef struct uid_body {
  uint64_t magic;
  uint64_t nonce;
  uint16_t port;
  char addr[64];
} uid_body;
_Static_assert(sizeof(uid_body) <= sizeof(shmemx_uniqueid_t), "uid_body fits the public type");

typedef struct hello {
  uint64_t magic;
  int32_t rank, size;
} hello;

static struct {
  bool uid_pending;      /* shmemx_init_with_uniqueid is running */
  uid_body uid;
  int uid_rank, uid_size;
  int uid_listen_fd;     /* from shmemx_get_uniqueid in this process, or -1 */
  int rank, size;
  int timeout_s;
  int root_fd;           /* ranks > 0: the connection to rank 0 */
  int *peer_fd;          /* rank 0: [size] connections, [0] unused */
} st = {.uid_listen_fd = -1, .root_fd = -1};

static _Noreturn void die(const char *fmt, const char *arg, int err)
{
  fprintf(stderr, "shoal: error: shmem_init: env bootstrap (rank %d of %d): ", st.rank, st.size);
  fprintf(stderr, fmt, arg);
  if (err) fprintf(stderr, ": %s", strerror(err));
  fprintf(stderr, "\n");
  fflush(stderr);
  _exit(1);
}

bool shoal_boot_env_present(void) { return getenv("RANK") && getenv("WORLD_SIZE"); }
bool shoal_boot_uid_pending(void) { return st.uid_pending; }

static int env_int(const char *name, int lo, int hi)
{
  const char *v = getenv(name);
  char *end;
  long x = v ? strtol(v, &end, 10) : 0;
  if (!v || !*v || *end || x < lo || x > hi) {
    fprintf(stderr, "shoal: error: shmem_init: env bootstrap: %s=\"%s\" must be an integer in "
                    "[%d, %d]\n", name, v ? v : "(unset)", lo, hi);
    exit(1);
  }
  return (int)x;
}

/* Wait until fd is readable (or writable), at most the bootstrap timeout. */
static void wait_fd(int fd, short events, const char *what)
{
  struct pollfd p = {fd, events, 0};
  int ms = st.timeout_s * 1000;
  for (;;) {
    int r = poll(&p, 1, ms);
    if (r > 0) return;
    if (r == 0) die("timed out after SHOAL_BOOTSTRAP_TIMEOUT seconds waiting for %s", what, 0);
    if (errno != EINTR) die("poll while waiting for %s", what, errno);
  }
}

static void send_all(int fd, const void *buf, size_t len, const char *what)
{
  const char *p = buf;
  while (len) {
    ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) { wait_fd(fd, POLLOUT, what); continue; }
    if (n <= 0) die("sending to %s", what, errno);
    p += n;
    len -= (size_t)n;
  }
}

static void recv_all(int fd, void *buf, size_t len, const char *what)
{
  char *p = buf;
  while (len) {
    wait_fd(fd, POLLIN, what);
    ssize_t n = recv(fd, p, len, 0);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n == 0) die("%s closed the connection (did it exit?)", what, 0);
    if (n < 0) die("receiving from %s", what, errno);
    p += n;
    len -= (size_t)n;
  }
}

static int resolve(const char *host, int port, struct sockaddr_storage *out, socklen_t *len)
{
  struct addrinfo hints = {0}, *res = NULL;
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  char ports[16];
  snprintf(ports, sizeof ports, "%d", port);
  if (getaddrinfo(host, ports, &hints, &res) != 0 || !res) return -1;
  memcpy(out, res->ai_addr, res->ai_addrlen);
  *len = res->ai_addrlen;
  freeaddrinfo(res);
  return 0;
}

/* A listening socket on addr:port (addr NULL: every address; port 0: any). */
static int listen_on(const char *addr, int port, int *bound_port)
{
  struct sockaddr_storage sa;
  socklen_t salen;
  if (addr) {
    if (resolve(addr, port, &sa, &salen) != 0) die("cannot resolve MASTER_ADDR \"%s\"", addr, 0);
  } else {
    struct sockaddr_in *in = (struct sockaddr_in *)&sa;
    memset(&sa, 0, sizeof sa);
    in->sin_family = AF_INET;
    in->sin_addr.s_addr = htonl(INADDR_ANY);
    in->sin_port = htons((uint16_t)port);
    salen = sizeof *in;
  }
  int fd = socket(sa.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int one = 1;
  if (fd < 0) die("socket for %s", "the rendezvous", errno);
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (bind(fd, (struct sockaddr *)&sa, salen) != 0) {
    char what[96];
    snprintf(what, sizeof what, "%s port %d (set SHOAL_BOOTSTRAP_PORT to a free port)",
             addr ? addr : "*", port);
    die("cannot listen on %s", what, errno);
  }
  if (listen(fd, 1024) != 0) die("listen on %s", "the rendezvous port", errno);
  if (bound_port) {
    getsockname(fd, (struct sockaddr *)&sa, &salen);
    *bound_port = ntohs(sa.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&sa)->sin6_port
                                                 : ((struct sockaddr_in *)&sa)->sin_port);
  }
  return fd;
}

static int connect_to(const char *addr, int port)
{
  struct sockaddr_storage sa;
  socklen_t salen;
  if (resolve(addr, port, &sa, &salen) != 0) die("cannot resolve rendezvous address \"%s\"", addr, 0);
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  useconds_t backoff = 1000;
  for (;;) {
    int fd = socket(sa.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) die("socket for %s", "the rendezvous", errno);
    if (connect(fd, (struct sockaddr *)&sa, salen) == 0) return fd;
    int err = errno;
    close(fd);
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec - start.tv_sec > st.timeout_s) {
      char what[96];
      snprintf(what, sizeof what, "%s:%d", addr, port);
      die("rank 0 never answered at %s (SHOAL_BOOTSTRAP_TIMEOUT)", what, err);
    }
    usleep(backoff);   /* rank 0 may not listen yet */
    if (backoff < 100000) backoff *= 2;
  }
}

static void nodelay(int fd)
{
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

static int env_init(shoal_boot *b)
{
  const char *addr;
  int port, listen_fd = -1;
  uint64_t nonce = 0;
  st.timeout_s = shoal_rt.env.bootstrap_timeout;
  if (st.uid_pending) {
    st.rank = st.uid_rank;
    st.size = st.uid_size;
    addr = st.uid.addr;
    port = st.uid.port;
    nonce = st.uid.nonce;
    if (st.rank == 0) listen_fd = st.uid_listen_fd >= 0 ? st.uid_listen_fd : listen_on(NULL, port, NULL);
    st.uid_listen_fd = -1;
  } else {
    st.size = env_int("WORLD_SIZE", 1, 1 << 24);
    st.rank = env_int("RANK", 0, st.size - 1);
    addr = getenv("MASTER_ADDR");
    if (!addr || !*addr) addr = "127.0.0.1";
    const char *p = getenv("SHOAL_BOOTSTRAP_PORT");
    if (p && *p) port = env_int("SHOAL_BOOTSTRAP_PORT", 1, 65535);
    else if (st.size > 1) port = env_int("MASTER_PORT", 1, 65534) + 1;
    else port = 0;
    /* Every address: MASTER_ADDR may name this host by an address
     * (127.0.1.1 from /etc/hosts) that other nodes cannot reach. */
    if (st.rank == 0 && st.size > 1) listen_fd = listen_on(NULL, port, NULL);
  }
  b->rank = st.rank;
  b->size = st.size;
  b->launched = st.size > 1;
  if (st.rank == 0) {
    st.peer_fd = calloc((size_t)st.size, sizeof(int));
    if (!nonce) nonce = ((uint64_t)getpid() << 20) ^ (uint64_t)time(NULL);
    for (int i = 1; i < st.size; i++) st.peer_fd[i] = -1;
    for (int got = 1; got < st.size; got++) {
      wait_fd(listen_fd, POLLIN, "the other ranks to connect");
      int fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
      if (fd < 0) die("accept on %s", "the rendezvous port", errno);
      nodelay(fd);
      hello h;
      recv_all(fd, &h, sizeof h, "a connecting rank");
      if (h.magic != HELLO_MAGIC || h.size != st.size || h.rank <= 0 || h.rank >= st.size ||
          st.peer_fd[h.rank] >= 0) {
        char what[128];
        snprintf(what, sizeof what, "rank %d of %d (this job: %d ranks)", h.rank, h.size, st.size);
        die("unexpected hello from %s: another job on the same port, or WORLD_SIZE differs", what, 0);
      }
      st.peer_fd[h.rank] = fd;
    }
    if (listen_fd >= 0) close(listen_fd);
    for (int i = 1; i < st.size; i++) send_all(st.peer_fd[i], &nonce, sizeof nonce, "a rank");
  } else {
    st.root_fd = connect_to(addr, port);
    nodelay(st.root_fd);
    hello h = {HELLO_MAGIC, st.rank, st.size};
    send_all(st.root_fd, &h, sizeof h, "rank 0");
    recv_all(st.root_fd, &nonce, sizeof nonce, "rank 0");
  }
  snprintf(b->job_id, sizeof b->job_id, "%s%llx", st.uid_pending ? "uid" : "env",
           (unsigned long long)nonce);
  return 0;
}

static void env_allgather(const void *mine, void *out, size_t len)
{
  if (st.size == 1) {
    memcpy(out, mine, len);
    return;
  }
  if (st.rank == 0) {
    memcpy(out, mine, len);
    for (int i = 1; i < st.size; i++)
      recv_all(st.peer_fd[i], (char *)out + (size_t)i * len, len, "a rank");
    for (int i = 1; i < st.size; i++)
      send_all(st.peer_fd[i], out, (size_t)st.size * len, "a rank");
  } else {
    send_all(st.root_fd, mine, len, "rank 0");
    recv_all(st.root_fd, out, (size_t)st.size * len, "rank 0");
  }
}

static void env_barrier(void)
{
  char c = 1, *all = malloc((size_t)st.size);
  env_allgather(&c, all, 1);
  free(all);
}

static void env_abort(int status, const char *msg)
{
  /* Closing the sockets tells the others, who fail their next exchange;
   * torchrun ends the rest of the job when one rank exits non-zero. */
  (void)msg;
  _exit(status);
}

static void env_fini(void)
{
  if (st.root_fd >= 0) close(st.root_fd);
  st.root_fd = -1;
  if (st.peer_fd)
    for (int i = 1; i < st.size; i++) close(st.peer_fd[i]);
  free(st.peer_fd);
  st.peer_fd = NULL;
  st.uid_pending = false;
}

const shoal_boot_ops shoal_boot_env_ops = {"env", env_init, env_allgather, env_barrier,
                                           env_abort, env_fini};

/* ---- unique-id init -------------------------------------------------------- */

/* The address peers reach this host at: SHOAL_BOOTSTRAP_ADDR, else the
 * host name's first address, else loopback. */
static void my_address(char *out, size_t len)
{
  const char *a = getenv("SHOAL_BOOTSTRAP_ADDR");
  if (a && *a) {
    snprintf(out, len, "%s", a);
    return;
  }
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  struct sockaddr_storage sa;
  socklen_t salen;
  if (*host && resolve(host, 0, &sa, &salen) == 0 &&
      getnameinfo((struct sockaddr *)&sa, salen, out, (socklen_t)len, NULL, 0, NI_NUMERICHOST) == 0)
    return;
  snprintf(out, len, "127.0.0.1");
}

int shmemx_get_uniqueid(shmemx_uniqueid_t *uid)
{
  if (!uid) {
    fprintf(stderr, "shoal: error: shmemx_get_uniqueid: argument 'uid' is NULL\n");
    return -1;
  }
  st.timeout_s = 120;
  if (st.uid_listen_fd >= 0) close(st.uid_listen_fd);
  int port = 0;
  st.uid_listen_fd = listen_on(NULL, 0, &port);
  uid_body body;
  memset(&body, 0, sizeof body);
  body.magic = UID_MAGIC;
  body.port = (uint16_t)port;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  body.nonce = ((uint64_t)getpid() << 32) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 8) ^ 1u;
  my_address(body.addr, sizeof body.addr);
  memset(uid, 0, sizeof *uid);
  memcpy(uid, &body, sizeof body);
  return 0;
}

int shmemx_init_with_uniqueid(shmemx_uniqueid_t uid, int rank, int nranks)
{
  uid_body body;
  memcpy(&body, &uid, sizeof body);
  if (body.magic != UID_MAGIC || !body.port) {
    fprintf(stderr, "shoal: error: shmemx_init_with_uniqueid: argument 'uid' is not from "
                    "shmemx_get_uniqueid (broadcast all %zu bytes of it to every rank)\n",
            sizeof uid);
    return -1;
  }
  if (nranks < 1 || rank < 0 || rank >= nranks) {
    fprintf(stderr, "shoal: error: shmemx_init_with_uniqueid: rank %d / nranks %d: need "
                    "0 <= rank < nranks\n", rank, nranks);
    return -1;
  }
  if (shoal_rt.initialized) {
    fprintf(stderr, "shoal: error: shmemx_init_with_uniqueid: the library is already "
                    "initialized\n");
    return -1;
  }
  body.addr[sizeof body.addr - 1] = '\0';
  st.uid = body;
  st.uid_rank = rank;
  st.uid_size = nranks;
  st.uid_pending = true;
  if (rank != 0 && st.uid_listen_fd >= 0) {
    close(st.uid_listen_fd);   /* made here, but rank 0 is another process */
    st.uid_listen_fd = -1;
  }
  int provided;
  return shmem_init_thread(SHMEM_THREAD_SINGLE, &provided);
}
