"""A recording pass-through in front of `gam serve`: every request a harness sends is written, byte for byte as it
arrived (request line, headers, body), to OUT/NNNN.http, then forwarded unchanged; the reply's body is written to
OUT/NNNN.reply.json and goes back to the harness unchanged, except that a chunked reply is passed on with a Content-Length (this run streams nothing).

    python capture.py LISTEN_PORT UPSTREAM_PORT OUT_DIR
"""
import http.client
import itertools
import os
import socket
import socketserver
import sys
import threading

LISTEN, UPSTREAM, OUT = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
os.makedirs(OUT, exist_ok=True)
_seq = itertools.count()
_lock = threading.Lock()


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        while True:
            head = b""
            while True:
                line = self.rfile.readline(65537)
                if not line:
                    return
                if not head and line in (b"\r\n", b"\n"):
                    continue  # an empty line before a request line is ignored (RFC 9112 2.2): a port probe sends one
                head += line
                if line in (b"\r\n", b"\n"):
                    break
            length = 0
            for h in head.split(b"\r\n")[1:]:
                name, _, value = h.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
            body = self.rfile.read(length) if length else b""
            raw = head + body
            with _lock:
                n = next(_seq)
            with open(os.path.join(OUT, "%04d.http" % n), "wb") as f:
                f.write(raw)
            up = socket.create_connection(("127.0.0.1", UPSTREAM))
            try:
                up.sendall(raw)
                r = http.client.HTTPResponse(up, method=head.split(b" ", 1)[0].decode())
                r.begin()
                data = r.read()
                with open(os.path.join(OUT, "%04d.reply.json" % n), "wb") as f:
                    f.write(data)
                out = ("HTTP/1.1 %d %s\r\n" % (r.status, r.reason)).encode()
                for k, v in r.getheaders():
                    if k.lower() in ("transfer-encoding", "content-length"):
                        continue
                    out += ("%s: %s\r\n" % (k, v)).encode("latin-1")
                out += b"Content-Length: %d\r\n\r\n" % len(data)
                self.wfile.write(out + data)
                self.wfile.flush()
            finally:
                up.close()
            if b"connection: close" in head.lower():
                return


class Server(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True


if __name__ == "__main__":
    with Server(("127.0.0.1", LISTEN), Handler) as s:
        print("capture: listening on %d, forwarding to %d, recording into %s" % (LISTEN, UPSTREAM, OUT), flush=True)
        s.serve_forever()
