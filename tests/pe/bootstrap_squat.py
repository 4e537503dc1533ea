#!/usr/bin/env python3
"""Occupy ports the way other programs can, for tests/pe/env_bootstrap_port.sh.

bootstrap_squat.py SECONDS MODE:PORT...   (prints "ready" once all are held)
  silent:P   listens on P and never answers (nor accepts)
  garbage:P  listens on P, answers every connection with an HTTP error line
             and keeps it open
  bound:P    binds P without listening, as a client socket holds its port
bootstrap_squat.py SECONDS intrude:PORT[,PORT...]:SIZE
  connects to a Shoal rank 0 at the first of the PORTs where one greets
  (rank 0 passes over a port that something else holds: another test's
  client socket may hold one of the sequence), checks its greeting, then
  sends it a hello of another job and, on a second connection, junk;
  prints "intruded PORT".
Exits 3 when a port is already taken (the caller picks other ports)."""
import selectors
import socket
import struct
import sys
import time

GREET_MAGIC = 0x53484F414C475254
HELLO_MAGIC = 0x53484F414C42544F


def greeting_at(port):
    """A connection to port and its 24-byte greeting, or None."""
    try:
        c = socket.create_connection(("127.0.0.1", port), timeout=2)
    except OSError:
        return None
    greeting = b""
    try:
        while len(greeting) < 24:
            chunk = c.recv(24 - len(greeting))
            if not chunk:
                break
            greeting += chunk
    except OSError:
        pass
    if len(greeting) < 24 or struct.unpack("=Q", greeting[:8])[0] != GREET_MAGIC:
        c.close()
        return None
    return c, greeting


def intrude(ports, size, deadline):
    found = None
    while found is None and time.time() < deadline:
        for port in ports:
            found = greeting_at(port)
            if found:
                break
        else:
            time.sleep(0.05)
    if found is None:
        sys.exit("intrude: no Shoal rank 0 greets on %s" % ",".join(map(str, ports)))
    c, greeting = found
    magic, version, gsize, job = struct.unpack("=QIiQ", greeting)
    if gsize != size:
        sys.exit("intrude: unexpected greeting %r" % greeting)
    # A hello of rank 1 of another job (the job identity differs).
    c.sendall(struct.pack("=QIiiIQ", HELLO_MAGIC, version, 1, size, 0, job ^ 1))
    junk = socket.create_connection(("127.0.0.1", port), timeout=2)
    junk.sendall(b"GET / HTTP/1.0\r\n\r\n" + b"x" * 40)
    print("intruded %d" % port, flush=True)
    time.sleep(1)


def main():
    deadline = time.time() + float(sys.argv[1])
    held, answer = [], []
    for arg in sys.argv[2:]:
        mode, port, *rest = arg.split(":")
        if mode == "intrude":
            intrude([int(p) for p in port.split(",")], int(rest[0]), deadline)
            return
        s = socket.socket()
        try:
            s.bind(("0.0.0.0", int(port)))
        except OSError as e:
            print("port %s: %s" % (port, e), file=sys.stderr)
            sys.exit(3)
        if mode != "bound":
            s.listen(1024)
        if mode == "garbage":
            answer.append(s)
        held.append(s)
    print("ready", flush=True)
    sel = selectors.DefaultSelector()
    for s in answer:
        sel.register(s, selectors.EVENT_READ)
    conns = []
    while time.time() < deadline:
        for key, _ in sel.select(timeout=0.5):
            c, _ = key.fileobj.accept()
            c.sendall(b"HTTP/1.0 400 Bad Request\r\n\r\n")
            conns.append(c)


main()
