/* Bootstrap from the environment torchrun (and Kubernetes operators) set:
 * RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT, or from a unique id
 * (shmemx_init_with_uniqueid).  A small TCP rendezvous, no MPI: rank 0
 * listens, every other rank keeps one connection to it, and an all-gather
 * is "send mine to rank 0, receive everything back".  Barrier is a one-byte
 * all-gather.  Every wait is bounded by SHOAL_BOOTSTRAP_TIMEOUT.
 *
 * The port: SHOAL_BOOTSTRAP_PORT, else MASTER_PORT+1, else (when that one is
 * taken: torchrun's own client sockets sit next to MASTER_PORT) the first
 * free one of a fixed sequence that the other ranks walk too.  Rank 0 greets
 * every connection with a magic, a protocol version and the job's identity,
 * so a rank passes over whatever else listens on those ports (and learns at
 * once when its WORLD_SIZE is not rank 0's); a rank answers with its hello,
 * and rank 0 turns away hellos of other jobs. */
#include "internal.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

#define UID_MAGIC 0x53484f414c554944ull    /* "SHOALUID" */
#define GREET_MAGIC 0x53484f414c475254ull  /* "SHOALGRT" */
#define HELLO_MAGIC 0x53484f414c42544full  /* "SHOALBTO" */
#define PROTO_VERSION 2u

/* The default port's fallbacks.  Under torchrun --standalone MASTER_PORT is
 * an ephemeral port, and the kernel hands the ports around it to client
 * sockets, so a run of its neighbours can all be held; a prime stride leaves
 * that neighbourhood at once.  7919 is prime to the 64512 ports of
 * 1024..65535, so the tries are distinct.  32 tries: that 32 scattered ports
 * are all held is as good as impossible, and a client's pass stays short. */
enum { PORT_TRIES = 32, PORT_STRIDE = 7919, PORT_LO = 1024, PORT_SPAN = 65536 - PORT_LO };
/* How long a rank's pass over those ports waits for greetings before it
 * starts over: rank 0 greets as soon as it accepts, so only programs that
 * are not this job's rank 0 keep a pass that long (and when rank 0 was
 * merely slow, the next pass finds it). */
enum { GREET_WAIT_MS = 500 };

/* What a unique id carries: where rank 0 listens, and a job nonce. */
typedef struct uid_body {
  uint64_t magic;
  uint64_t nonce;
  uint16_t port;
  char addr[64];
} uid_body;
_Static_assert(sizeof(uid_body) <= sizeof(shmemx_uniqueid_t), "uid_body fits the public type");

/* Rank 0's first words on every connection, so that a rank never joins a
 * program that merely listens on the port, nor another job's rank 0. */
typedef struct greeting {
  uint64_t magic;
  uint32_t version;
  int32_t size;
  uint64_t job;
} greeting;

/* A rank's answer to a greeting of its job. */
typedef struct hello {
  uint64_t magic;
  uint32_t version;
  int32_t rank, size;
  uint32_t pad;
  uint64_t job;
} hello;

static struct {
  bool uid_pending;      /* shmemx_init_with_uniqueid is running */
  uid_body uid;
  int uid_rank, uid_size;
  int uid_listen_fd;     /* from shmemx_get_uniqueid in this process, or -1 */
  int rank, size;
  int timeout_s;
  uint64_t job_base;     /* the job's identity but for its size */
  uint64_t job;          /* the job's identity: job_of(job_base, size) */
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

static int64_t now_ms(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* poll one fd until the monotonic time end (ms): > 0 ready, 0 timed out. */
static int poll_until(struct pollfd *p, int64_t end)
{
  for (;;) {
    int64_t left = end - now_ms();
    int r = poll(p, 1, left <= 0 ? 0 : left > INT_MAX ? INT_MAX : (int)left);
    if (r >= 0) return r;
    if (errno != EINTR) die("poll on %s", "a rendezvous socket", errno);
  }
}

/* Wait until fd is readable (or writable), at most the bootstrap timeout. */
static void wait_fd(int fd, short events, const char *what)
{
  struct pollfd p = {fd, events, 0};
  if (poll_until(&p, now_ms() + (int64_t)st.timeout_s * 1000) == 0)
    die("timed out after SHOAL_BOOTSTRAP_TIMEOUT seconds waiting for %s", what, 0);
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
    if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
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

static void set_port(struct sockaddr_storage *sa, int port)
{
  if (sa->ss_family == AF_INET6) ((struct sockaddr_in6 *)sa)->sin6_port = htons((uint16_t)port);
  else ((struct sockaddr_in *)sa)->sin_port = htons((uint16_t)port);
}

static void nodelay(int fd)
{
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

/* A listening socket on every address at port (0: any; the port taken in
 * *bound_port).  -1 when busy_ok and the port cannot be ours (in use, or
 * privileged); any other failure ends the job, naming where the port came
 * from (origin). */
static int listen_on(int port, bool busy_ok, const char *origin, int *bound_port)
{
  struct sockaddr_in in;
  memset(&in, 0, sizeof in);
  in.sin_family = AF_INET;
  in.sin_addr.s_addr = htonl(INADDR_ANY);
  in.sin_port = htons((uint16_t)port);
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int one = 1;
  if (fd < 0) die("socket for %s", "the rendezvous", errno);
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (bind(fd, (struct sockaddr *)&in, sizeof in) != 0) {
    int err = errno;
    close(fd);
    if (busy_ok && (err == EADDRINUSE || err == EACCES)) return -1;
    char what[160];
    snprintf(what, sizeof what, "* port %d (%s)", port, origin);
    die("cannot listen on %s", what, err);
  }
  if (listen(fd, 1024) != 0) die("listen on %s", "the rendezvous port", errno);
  if (bound_port) {
    socklen_t len = sizeof in;
    getsockname(fd, (struct sockaddr *)&in, &len);
    *bound_port = ntohs(in.sin_port);
  }
  return fd;
}

/* Port k of the default sequence: MASTER_PORT + 1 first, then steps of
 * PORT_STRIDE that wrap inside 1024..65535. */
static int seq_port(int first, int k)
{
  if (k == 0) return first;
  long off = ((long)first - PORT_LO + (long)k * PORT_STRIDE) % PORT_SPAN;
  if (off < 0) off += PORT_SPAN;
  return PORT_LO + (int)off;
}

/* Rank 0 with the default port: the first port of the sequence it can bind. */
static int listen_first_free(const int *ports, int nports, int *chosen)
{
  for (int k = 0; k < nports; k++) {
    int fd = listen_on(ports[k], true, "MASTER_PORT+1", NULL);
    if (fd >= 0) {
      *chosen = ports[k];
      return fd;
    }
  }
  char what[1024];
  int n = snprintf(what, sizeof what, "any of the %d ports tried (MASTER_PORT+1 = %d and its "
                   "fallbacks:", nports, ports[0]);
  for (int k = 1; k < nports && n > 0 && n < (int)sizeof what; k++)
    n += snprintf(what + n, sizeof what - (size_t)n, " %d", ports[k]);
  die("cannot listen on %s): all in use; set SHOAL_BOOTSTRAP_PORT to a free port", what, 0);
}

static uint64_t fnv1a(uint64_t h, const char *s)
{
  for (;; s++) {   /* the terminating 0 too: "ab"+"c" differs from "a"+"bc" */
    h ^= (unsigned char)*s;
    h *= 0x100000001b3ull;
    if (!*s) return h;
  }
}

/* What every rank of one torchrun job agrees on and another job does not,
 * but for the size, which job_of adds: a rank can then tell rank 0 of its
 * own job with another WORLD_SIZE from another job. */
static uint64_t env_job_base(const char *addr)
{
  const char *port = getenv("MASTER_PORT"), *run = getenv("TORCHELASTIC_RUN_ID");
  uint64_t h = fnv1a(0xcbf29ce484222325ull, addr);
  h = fnv1a(h, port ? port : "");
  return fnv1a(h, run ? run : "");
}

static uint64_t job_of(uint64_t base, int size)
{
  char sz[16];
  snprintf(sz, sizeof sz, "%d", size);
  return fnv1a(base, sz);
}

/* Why a port of the sequence was passed over. */
enum miss { MISS_REFUSED, MISS_SILENT, MISS_CLOSED, MISS_NOT_SHOAL, MISS_VERSION,
            MISS_OTHER_JOB };
static const char *const miss_text[] = {
    "refused", "no greeting", "closed without a greeting",
    "not Shoal (answered something else)", "another Shoal version",
    "another job's Shoal (MASTER_ADDR, MASTER_PORT or TORCHELASTIC_RUN_ID differ)"};

/* One connection of a pass: connecting, then reading the greeting. */
typedef struct attempt {
  int fd;
  bool connected;
  size_t got;
  greeting g;
} attempt;

/* Advance a on a poll event: 1 when this job's rank 0 greeted, 0 when more
 * is to come, -1 (fd closed, *why set) when it is not rank 0. */
static int attempt_step(attempt *a, const greeting *want, enum miss *why)
{
  if (!a->connected) {
    int err = 0;
    socklen_t len = sizeof err;
    if (getsockopt(a->fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err) {
      *why = MISS_REFUSED;
      goto miss;
    }
    a->connected = true;
    return 0;
  }
  ssize_t n = recv(a->fd, (char *)&a->g + a->got, sizeof a->g - a->got, 0);
  if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
  if (n <= 0) {
    *why = a->got ? MISS_NOT_SHOAL : MISS_CLOSED;
    goto miss;
  }
  a->got += (size_t)n;
  /* Garbage shows in its first bytes: no need to wait for the rest. */
  size_t head = a->got < sizeof want->magic ? a->got : sizeof want->magic;
  if (memcmp(&a->g, &want->magic, head) != 0) {
    *why = MISS_NOT_SHOAL;
    goto miss;
  }
  if (a->got < sizeof a->g) return 0;
  if (a->g.version != want->version) {
    *why = MISS_VERSION;
  } else if (a->g.size != want->size && a->g.job == job_of(st.job_base, a->g.size)) {
    char what[128];
    snprintf(what, sizeof what, "WORLD_SIZE (or nranks) %d, but this rank has %d", a->g.size,
             st.size);
    die("rank 0 of this job has %s: every rank must be given the same", what, 0);
  } else if (a->g.job != want->job || a->g.size != want->size) {
    *why = MISS_OTHER_JOB;
  } else {
    return 1;
  }
miss:
  close(a->fd);
  a->fd = -1;
  return -1;
}

/* One pass over the ports: connect to all of them at once, and take the
 * one that greets as this job's rank 0 (there is one such), waiting until
 * end at most.  At once, not in turn: a port that drops packets or a
 * program that never answers costs no time when rank 0 is up elsewhere.
 * The connected socket, or -1 with why[] for each port. */
static int pass_rank0(struct sockaddr_storage *sa, socklen_t salen, const int *ports, int nports,
                      int64_t end, enum miss *why)
{
  const greeting want = {GREET_MAGIC, PROTO_VERSION, st.size, st.job};
  attempt a[PORT_TRIES];
  struct pollfd p[PORT_TRIES];
  int live = 0, found = -1;
  for (int k = 0; k < nports; k++) {
    a[k] = (attempt){-1, false, 0, {0}};
    why[k] = MISS_SILENT;
    int fd = socket(sa->ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) die("socket for %s", "the rendezvous", errno);
    set_port(sa, ports[k]);
    int r = connect(fd, (struct sockaddr *)sa, salen);
    if (r != 0 && errno != EINPROGRESS) {
      why[k] = MISS_REFUSED;
      close(fd);
      continue;
    }
    a[k] = (attempt){fd, r == 0, 0, {0}};
    live++;
  }
  while (live > 0 && found < 0) {
    for (int k = 0; k < nports; k++)
      p[k] = (struct pollfd){a[k].fd, a[k].connected ? POLLIN : POLLOUT, 0};
    int64_t left = end - now_ms();
    int r = poll(p, (nfds_t)nports, left <= 0 ? 0 : left > INT_MAX ? INT_MAX : (int)left);
    if (r < 0 && errno != EINTR) die("poll on %s", "the rendezvous ports", errno);
    if (r == 0) break;
    for (int k = 0; k < nports && found < 0; k++) {
      if (a[k].fd < 0 || !p[k].revents) continue;
      int s = attempt_step(&a[k], &want, &why[k]);
      if (s < 0) live--;
      if (s > 0) found = k;
    }
  }
  for (int k = 0; k < nports; k++)
    if (k != found && a[k].fd >= 0) close(a[k].fd);
  return found >= 0 ? a[found].fd : -1;
}

/* Ranks > 0: find this job's rank 0 at addr on one of ports, passing over
 * whatever else listens there, pass after pass until
 * SHOAL_BOOTSTRAP_TIMEOUT.  Pass n tries the first n ports only: a job
 * whose rank 0 is on MASTER_PORT+1 (nearly all) knocks on no other port,
 * and one whose rank 0 is slow to start does not look like a port scan.
 * origin says where the ports came from. */
static int connect_rank0(const char *addr, const int *ports, int nports, const char *origin)
{
  struct sockaddr_storage sa;
  socklen_t salen;
  if (resolve(addr, ports[0], &sa, &salen) != 0)
    die("cannot resolve rendezvous address \"%s\"", addr, 0);
  enum miss why[PORT_TRIES];
  int64_t end = now_ms() + (int64_t)st.timeout_s * 1000;
  useconds_t backoff = 1000;
  int width = 1;
  for (;; width += width < nports) {
    /* A single port can only be rank 0's, who may come late (a unique id's
     * rank 0 greets once it calls init): wait for it to the end. */
    int64_t pass_end = nports == 1 || end - now_ms() < GREET_WAIT_MS ? end
                                                                    : now_ms() + GREET_WAIT_MS;
    int fd = pass_rank0(&sa, salen, ports, width, pass_end, why);
    if (fd >= 0) return fd;
    if (nports == 1 && why[0] >= MISS_NOT_SHOAL) {
      char what[400];
      snprintf(what, sizeof what, "%s:%d (%s) is not this job's rank 0: %s", addr, ports[0],
               origin, miss_text[why[0]]);
      die("%s", what, 0);
    }
    if (now_ms() >= end) break;
    usleep(backoff);   /* rank 0 may not listen yet */
    if (backoff < 100000) backoff *= 2;
  }
  /* The ports with what each said last, or the ports and one outcome. */
  bool same = true;
  for (int k = 1; k < width; k++) same = same && why[k] == why[0];
  char what[2048];
  int n = snprintf(what, sizeof what, "%s within SHOAL_BOOTSTRAP_TIMEOUT=%d s; ports tried (%s):",
                   addr, st.timeout_s, origin);
  for (int k = 0; k < width && n > 0 && n < (int)sizeof what; k++)
    n += snprintf(what + n, sizeof what - (size_t)n, "%s %d%s%s", k ? "," : "", ports[k],
                  same ? "" : " ", same ? "" : miss_text[why[k]]);
  if (same && n > 0 && n < (int)sizeof what)
    snprintf(what + n, sizeof what - (size_t)n, ": %s", miss_text[why[0]]);
  die("rank 0 never answered at %s", what, 0);
}

/* A greeted connection whose hello is still coming. */
typedef struct pending {
  int fd;
  size_t got;
  hello h;
} pending;

/* Is h the hello of a rank of this job?  Another job's (or version's) rank
 * is turned away without failing; the same rank twice is this job's error. */
static bool take_hello(int fd, const hello *h, int port)
{
  if (h->magic != HELLO_MAGIC) return false;
  if (h->version != PROTO_VERSION || h->job != st.job || h->size != st.size) {
    fprintf(stderr, "shoal: warning: env bootstrap: rank 0 turned away rank %d of %d of another "
                    "job or Shoal version on port %d\n", h->rank, h->size, port);
    return false;
  }
  if (h->rank <= 0 || h->rank >= st.size || st.peer_fd[h->rank] >= 0) {
    char what[96];
    snprintf(what, sizeof what, "%d", h->rank);
    die("rank %s connected twice or is out of range (two processes with the same RANK?)", what, 0);
  }
  st.peer_fd[h->rank] = fd;
  return true;
}

/* Rank 0: greet every connection on listen_fd and keep those that answer
 * with a hello of this job, until every rank is in.  Anything else (a port
 * scanner, another job's rank) is closed; this rank fails only when no rank
 * came for SHOAL_BOOTSTRAP_TIMEOUT. */
static void accept_ranks(int listen_fd, int port)
{
  const greeting g = {GREET_MAGIC, PROTO_VERSION, st.size, st.job};
  int fl = fcntl(listen_fd, F_GETFL);
  if (fl < 0 || fcntl(listen_fd, F_SETFL, fl | O_NONBLOCK) != 0)
    die("fcntl on %s", "the rendezvous port", errno);
  pending *pend = NULL;
  struct pollfd *pfd = NULL;
  size_t npend = 0, cap = 0;
  int joined = 1;
  int64_t end = now_ms() + (int64_t)st.timeout_s * 1000;
  while (joined < st.size) {
    if (npend + 1 > cap) {
      cap = 2 * cap + 16;
      pend = realloc(pend, cap * sizeof *pend);
      pfd = realloc(pfd, cap * sizeof *pfd);
      if (!pend || !pfd) die("out of memory for %s", "the rendezvous", 0);
    }
    pfd[0] = (struct pollfd){listen_fd, POLLIN, 0};
    for (size_t i = 0; i < npend; i++) pfd[1 + i] = (struct pollfd){pend[i].fd, POLLIN, 0};
    int64_t left = end - now_ms();
    if (left <= 0) {
      char what[64];
      snprintf(what, sizeof what, "%d of %d", st.size - joined, st.size);
      die("timed out after SHOAL_BOOTSTRAP_TIMEOUT seconds waiting for the other ranks to "
          "connect (%s ranks missing)", what, 0);
    }
    int r = poll(pfd, npend + 1, left > INT_MAX ? INT_MAX : (int)left);
    if (r < 0 && errno != EINTR) die("poll while waiting for %s", "the other ranks", errno);
    if (r <= 0) continue;
    /* Hellos first, from the last, so that removing one moves a done one. */
    for (size_t i = npend; i-- > 0;) {
      if (!pfd[1 + i].revents) continue;
      pending *c = &pend[i];
      ssize_t n = recv(c->fd, (char *)&c->h + c->got, sizeof c->h - c->got, 0);
      if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
      if (n > 0 && (c->got += (size_t)n) < sizeof c->h) continue;
      if (n > 0 && take_hello(c->fd, &c->h, port)) {
        joined++;
        end = now_ms() + (int64_t)st.timeout_s * 1000;   /* the timeout counts from progress */
      } else {
        close(c->fd);
      }
      pend[i] = pend[--npend];
    }
    if (!pfd[0].revents) continue;
    for (;;) {
      int fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
      if (fd < 0 && (errno == EINTR || errno == ECONNABORTED)) continue;
      if (fd < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
      if (fd < 0) die("accept on %s", "the rendezvous port", errno);
      nodelay(fd);
      if (send(fd, &g, sizeof g, MSG_NOSIGNAL | MSG_DONTWAIT) != (ssize_t)sizeof g) {
        close(fd);
        continue;
      }
      if (npend + 1 >= cap) {   /* pfd needs a slot more than pend */
        cap = 2 * cap + 16;
        pend = realloc(pend, cap * sizeof *pend);
        pfd = realloc(pfd, cap * sizeof *pfd);
        if (!pend || !pfd) die("out of memory for %s", "the rendezvous", 0);
      }
      pend[npend++] = (pending){fd, 0, {0}};
    }
  }
  for (size_t i = 0; i < npend; i++) close(pend[i].fd);
  free(pend);
  free(pfd);
}

static int env_init(shoal_boot *b)
{
  const char *addr, *origin = "SHOAL_BOOTSTRAP_PORT";
  int ports[PORT_TRIES], nports = 1, port = 0, listen_fd = -1;
  uint64_t nonce = 0;
  st.timeout_s = shoal_rt.env.bootstrap_timeout;
  if (st.uid_pending) {
    st.rank = st.uid_rank;
    st.size = st.uid_size;
    addr = st.uid.addr;
    port = ports[0] = st.uid.port;
    origin = "the unique id's port";
    nonce = st.job_base = st.uid.nonce;
    if (st.rank == 0)
      listen_fd = st.uid_listen_fd >= 0 ? st.uid_listen_fd : listen_on(port, false, origin, NULL);
    st.uid_listen_fd = -1;
  } else {
    st.size = env_int("WORLD_SIZE", 1, 1 << 24);
    st.rank = env_int("RANK", 0, st.size - 1);
    addr = getenv("MASTER_ADDR");
    if (!addr || !*addr) addr = "127.0.0.1";
    st.job_base = env_job_base(addr);
    const char *p = getenv("SHOAL_BOOTSTRAP_PORT");
    if (st.size == 1) {
      nports = 0;
    } else if (p && *p) {
      port = ports[0] = env_int("SHOAL_BOOTSTRAP_PORT", 1, 65535);
    } else {
      int first = env_int("MASTER_PORT", 1, 65534) + 1;
      nports = PORT_TRIES;
      for (int k = 0; k < nports; k++) ports[k] = seq_port(first, k);
      origin = "MASTER_PORT+1 and its fallbacks";
    }
    /* Every address: MASTER_ADDR may name this host by an address
     * (127.0.1.1 from /etc/hosts) that other nodes cannot reach. */
    if (st.rank == 0 && nports == 1) listen_fd = listen_on(port, false, origin, NULL);
    if (st.rank == 0 && nports > 1) listen_fd = listen_first_free(ports, nports, &port);
  }
  st.job = job_of(st.job_base, st.size);
  b->rank = st.rank;
  b->size = st.size;
  b->launched = st.size > 1;
  if (st.rank == 0) {
    st.peer_fd = calloc((size_t)st.size, sizeof(int));
    if (!st.peer_fd) die("out of memory for %s", "the rendezvous", 0);
    if (!nonce) nonce = ((uint64_t)getpid() << 20) ^ (uint64_t)time(NULL);
    for (int i = 1; i < st.size; i++) st.peer_fd[i] = -1;
    if (st.size > 1) accept_ranks(listen_fd, port);
    if (listen_fd >= 0) close(listen_fd);
    for (int i = 1; i < st.size; i++) send_all(st.peer_fd[i], &nonce, sizeof nonce, "a rank");
  } else {
    st.root_fd = connect_rank0(addr, ports, nports, origin);
    nodelay(st.root_fd);
    hello h = {HELLO_MAGIC, PROTO_VERSION, st.rank, st.size, 0, st.job};
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
  st.uid_listen_fd = listen_on(0, false, "shmemx_get_uniqueid", &port);
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
