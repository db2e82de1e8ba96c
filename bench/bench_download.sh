#!/usr/bin/env bash
# bench_download.sh - download's throughput on small pages from a server on the loopback
# interface (nginx from Debian, one worker; Python's http.server when nginx is missing), and
# its CPU time per page beside wget's (--warc-file: it too writes WARC; one connection) and
# curl's (--parallel, 64 at once, no WARC) on the same URLs in the same run.
# Goal (issue 41): at least 1,000 pages/s on 2 cores. All traffic stays on 127.0.0.x.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
N=${BENCH_DOWNLOAD_URLS:-20000}
W=$(mktemp -d); SRV=
cleanup() { [ -n "$SRV" ] && kill "$SRV" 2>/dev/null; wait 2>/dev/null; rm -rf "$W"; }
trap cleanup EXIT
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
page=$(python3 -c 'print("<html><head><title>bench</title></head><body>" + "<p>" + "small page words " * 100 + "</p></body></html>")')
NGINX=$(command -v nginx || ls /usr/sbin/nginx 2>/dev/null || true)
if [ -n "$NGINX" ]; then
  mkdir -p "$W/ng/logs"
  cat > "$W/ng/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $W/ng/nginx.pid;
error_log $W/ng/logs/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:$PORT; listen 127.0.0.2:$PORT; listen 127.0.0.3:$PORT; listen 127.0.0.4:$PORT;
    location = /robots.txt { return 404; }
    location / { default_type text/html; return 200 '$page'; }
  }
}
CONF
  "$NGINX" -p "$W/ng" -c "$W/ng/nginx.conf" 2> "$W/ng/start.err" & SRV=$!
  server="nginx $("$NGINX" -v 2>&1 | sed 's/.*nginx\///'), one worker"
else
  echo "bench_download: nginx not found (scripts/setup/install_deps.sh --bench installs it): Python's http.server instead, much slower" >&2
  PYS=${PY:-build/venv/bin/python3}
  "$PYS" tests/e2e/http_faults.py --host 127.0.0.1 --port-file "$W/port" --robots 404 --lifetime 600 & SRV=$!
  for _ in $(seq 100); do [ -s "$W/port" ] && break; sleep 0.05; done; PORT=$(cat "$W/port")
  server="Python http.server"
fi
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$PORT/ping" 2>/dev/null && break; sleep 0.05; done
hosts=4; [ -n "$NGINX" ] || hosts=1
for i in $(seq 1 "$N"); do echo "http://127.0.0.$(( i % hosts + 1 )):$PORT/p/$i"; done > "$W/urls"
head -n $(( N / 4 )) "$W/urls" > "$W/urls.q"
nq=$(( N / 4 ))
# run NAME PAGES CMD...: wall seconds, CPU seconds (user + system) of the command
run() {
  local name=$1 pages=$2; shift 2
  /usr/bin/time -f "%e %U %S" -o "$W/t" "$@" > /dev/null 2> "$W/err" || { echo "$name failed: $(tail -3 "$W/err")"; return 1; }
  read -r wall u s < "$W/t"
  python3 -c "import sys; n,w,c=int(sys.argv[2]),float(sys.argv[3]),float(sys.argv[4]); print('%-34s %7d pages %7.2f s %8.0f pages/s  CPU %.3f ms/page' % (sys.argv[1], n, w, n/w, 1000*c/n))" \
    "$name" "$pages" "$wall" "$(echo "$u + $s" | bc -l)" | tee -a "$W/results"
}
echo "server: $server on 127.0.0.1-$hosts:$PORT; pages of $(( ${#page} )) bytes; $(nproc) cores"
run "download -j 64 --per-host 16" "$N" "$BIN/download" -q -o "$W/ours" --wait 0 -j 64 --per-host 16 "$W/urls"
python3 - "$W/ours" "$N" <<'PY'
import glob, json, sys
d, n = sys.argv[1], int(sys.argv[2])
ok = sum(1 for l in open(d + "/download.log.jsonl") if json.loads(l)["status"] == "fetched")
print("  download: %d of %d pages fetched into %d WARC file(s)" % (ok, n, len(glob.glob(d + "/*.warc.gz"))))
PY
if command -v wget >/dev/null; then
  run "wget --warc-file (1 connection)" "$nq" wget -q -e robots=off -i "$W/urls.q" -O /dev/null --warc-file="$W/wget" --no-warc-keep-log
  run "download -j 1 (1 connection)" "$nq" "$BIN/download" -q -o "$W/ours1" --wait 0 -j 1 --per-host 1 "$W/urls.q"
else echo "wget not found: skipped (scripts/setup/install_deps.sh --bench installs it)"; fi
if command -v curl >/dev/null; then
  awk '{print "url = \"" $0 "\"\noutput = \"/dev/null\""}' "$W/urls" > "$W/curl.cfg"
  run "curl --parallel (64, no WARC)" "$N" curl -s -Z --parallel-max 64 -K "$W/curl.cfg"
fi
python3 - "$W/results" <<'PY'
import re, sys
r = {}
for l in open(sys.argv[1]):
    m = re.match(r"(.{34})\s+(\d+) pages\s+([\d.]+) s\s+(\d+) pages/s\s+CPU ([\d.]+) ms/page", l)
    if m: r[m.group(1).strip()] = (int(m.group(4)), float(m.group(5)))
ours = r.get("download -j 64 --per-host 16")
one = r.get("download -j 1 (1 connection)")
wg = r.get("wget --warc-file (1 connection)")
cu = r.get("curl --parallel (64, no WARC)")
if ours: print("download: %d pages/s (goal >= 1000)" % ours[0])
if one and wg: print("CPU per page, one connection: wget / download = %.2fx; pages/s %.2fx" % (wg[1] / one[1], one[0] / wg[0]))
if ours and cu: print("CPU per page, 64 at once: curl / download = %.2fx (curl writes no WARC); pages/s %.2fx" % (cu[1] / ours[1], ours[0] / cu[0]))
PY
