#!/usr/bin/env python3
"""A loopback HTTP/1.1 server for download's tests and benchmark, with the faults
a crawler meets: redirects and a redirect loop, 404/500/429 with Retry-After, a
slow drip, a body past the size limit, a connection reset mid-body, gzip, a wrong
Content-Length, robots.txt, non-UTF-8 pages.

    http_faults.py --host 127.0.0.1 --port-file F [--robots MODE] [--lifetime S] [--tls CERT KEY]

Listens on the given loopback address only (refuses any other), on a free port
written to --port-file. Ends after --lifetime seconds or --max-requests requests,
whichever comes first (the test also stops it when it ends): every loop is bounded.
body_for(path) is imported by check_download.py: what each path's payload must be.
"""
import argparse
import gzip
import hashlib
import http.server
import ipaddress
import os
import socket
import struct
import sys
import threading
import time

COUNTS = {}
LOCK = threading.Lock()


def body_for(path):
    """The payload (decoded) a path serves when it succeeds."""
    if path.startswith("/latin1"):
        return ("<html><head><meta charset=iso-8859-1><title>caf\xe9</title></head><body><p>D\xe9j\xe0 vu, "
                "na\xefve fa\xe7ade, \xa3 5</p></body></html>").encode("latin-1")
    if path.startswith("/gzip"):
        return b"<html><body><p>" + b"compressed words " * 200 + b"</p></body></html>"
    n = int(hashlib.sha1(path.encode()).hexdigest()[:6], 16)
    words = " ".join("w%d" % ((n * 7 + i * 13) % 997) for i in range(40 + n % 60))
    return ("<html><head><title>%s</title></head><body><h1>%s</h1><p>%s</p></body></html>" % (path, path, words)).encode()


def hit(key):
    with LOCK:
        COUNTS[key] = COUNTS.get(key, 0) + 1
        return COUNTS[key]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "faults/1"

    def log_message(self, *a):
        pass

    def setup(self):
        super().setup()
        # headers and body go out as separate writes: without this, Nagle's algorithm and the
        # client's delayed ACK hold every response 40 ms
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def send_body(self, code, body, ctype="text/html; charset=utf-8", extra=()):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def reset(self, after=b""):
        """Send part of a response, then abort the connection with a TCP RST."""
        if after:
            self.wfile.write(after)
            self.wfile.flush()
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.close_connection = True
        self.connection.close()

    def do_GET(self):
        self.server.requests += 1
        p = self.path.split("?")[0]
        robots = self.server.robots
        if p == "/robots.txt":
            if robots == "disallow":
                return self.send_body(200, b"User-agent: *\nDisallow: /private/\nAllow: /private/ok\n\n"
                                           b"User-agent: otherbot\nDisallow: /\n", "text/plain")
            if robots == "5xx":
                return self.send_body(503, b"down", "text/plain")
            if robots == "reset":
                return self.reset()
            return self.send_body(404, b"no robots.txt", "text/plain")
        if p.startswith("/slow/"):  # a page that takes 15 ms (the interruption tests)
            time.sleep(0.015)
            return self.send_body(200, body_for(p))
        if p.startswith("/redirect/"):
            self.send_response(301)
            self.send_header("Location", "/page/" + p[len("/redirect/"):])
            self.send_header("Content-Length", "0")
            return self.end_headers()
        if p.startswith("/goto/"):  # a redirect to another host: /goto/HOST:PORT/PATH
            self.send_response(302)
            self.send_header("Location", "http://" + self.path[len("/goto/"):])
            self.send_header("Content-Length", "0")
            return self.end_headers()
        if p.startswith("/loop"):
            self.send_response(302)
            self.send_header("Location", "/loop")
            self.send_header("Content-Length", "0")
            return self.end_headers()
        if p.startswith("/status/"):
            code = int(p.split("/")[2])
            return self.send_body(code, b"status %d" % code)
        if p.startswith("/flaky/"):  # 500 once, then the page
            if hit(p) == 1:
                return self.send_body(500, b"try again")
            return self.send_body(200, body_for(p))
        if p.startswith("/busy/"):  # 429 with Retry-After: 1 once, then the page
            if hit(p) == 1:
                return self.send_body(429, b"slow down", extra=[("Retry-After", "1")])
            self.server.after_429[p] = time.time()
            return self.send_body(200, body_for(p))
        if p.startswith("/busyforever/"):
            return self.send_body(429, b"slow down", extra=[("Retry-After", "3600")])
        if p.startswith("/drip"):  # a few bytes, then silence past the read timeout
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b"<html>")
            self.wfile.flush()
            time.sleep(4)
            self.close_connection = True
            return
        if p.startswith("/big"):
            body = b"x" * (3 << 20)
            if p.startswith("/bigchunked"):
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                for i in range(0, len(body), 65536):
                    c = body[i:i + 65536]
                    try:
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(c), c))
                    except OSError:
                        return
                self.wfile.write(b"0\r\n\r\n")
                return
            return self.send_body(200, body)
        if p.startswith("/resetonce/"):
            if hit(p) == 1:
                self.send_response(200)
                self.send_header("Content-Length", "5000")
                self.end_headers()
                return self.reset(b"<html>" + b"y" * 100)
            return self.send_body(200, body_for(p))
        if p.startswith("/reset/"):
            self.send_response(200)
            self.send_header("Content-Length", "5000")
            self.end_headers()
            return self.reset(b"<html>" + b"y" * 100)
        if p.startswith("/shortcl/"):  # Content-Length says more than is sent
            body = body_for(p)
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body) + 500))
            self.end_headers()
            self.wfile.write(body)
            self.close_connection = True
            return
        if p.startswith("/gzip"):
            z = gzip.compress(body_for(p))
            return self.send_body(200, z, extra=[("Content-Encoding", "gzip"), ("Vary", "Accept-Encoding")])
        if p.startswith("/chunked/"):
            body = body_for(p)
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for i in range(0, len(body), 100):
                c = body[i:i + 100]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(c), c))
            self.wfile.write(b"0\r\n\r\n")
            return
        if p.startswith("/latin1"):
            return self.send_body(200, body_for(p), "text/html; charset=iso-8859-1")
        return self.send_body(200, body_for(p))


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--robots", default="disallow", choices=["disallow", "404", "5xx", "reset"])
    ap.add_argument("--lifetime", type=float, default=300)
    ap.add_argument("--max-requests", type=int, default=1000000)
    ap.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"), help="serve HTTPS with this certificate")
    a = ap.parse_args()
    if not ipaddress.ip_address(a.host).is_loopback:
        sys.exit("http_faults.py: %s is not a loopback address" % a.host)
    srv = Server((a.host, 0), Handler)
    if a.tls:
        import ssl
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(a.tls[0], a.tls[1])
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    srv.robots = a.robots
    srv.requests = 0
    srv.after_429 = {}
    tmp = a.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % srv.server_address[1])
    os.rename(tmp, a.port_file)
    deadline = time.time() + a.lifetime

    srv.timeout = 0.2
    while time.time() < deadline and srv.requests < a.max_requests:
        srv.handle_request()
    srv.server_close()


if __name__ == "__main__":
    main()
