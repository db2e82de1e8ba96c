#!/usr/bin/env bash
# End-to-end tests of bin/download against real HTTP servers on loopback addresses
# (tests/e2e/http_faults.py: Python's http.server with a handler for the faults), started and
# stopped here: pages, redirects and a redirect loop, 404/500/429 with Retry-After, a slow drip
# past the read timeout, bodies past the size limit, connections reset mid-body, gzip, a short
# Content-Length, robots.txt (a forbidden path; 404; 503; reset), a latin-1 page, four hosts.
# The WARC files are read back by warcio (tests/e2e/check_download.py): every payload is what
# the server sent. Then resuming: kill -9 at random moments of a run over 10,000 URLs, restart,
# each page exactly once; SIGTERM; rotation; JSON-lines input; bad arguments.
. "$(dirname "$0")/lib.sh"
D=$BIN/download
if ! has_py warcio; then
  fail download_checks "warcio missing in $PY (scripts/setup/install_deps.sh --test installs it)"; exit 0
fi
SERVERS=()
stop_servers() { for p in "${SERVERS[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$WORK"; }
trap stop_servers EXIT
# start_server ADDR ROBOTS: the server's port in $PORT
start_server() {
  local pf="$WORK/port.$1.$2"
  "$PY" "$ROOT/tests/e2e/http_faults.py" --host "$1" --port-file "$pf" --robots "$2" --lifetime 300 \
    > "$WORK/server.$1.log" 2>&1 &
  SERVERS+=($!)
  for _ in $(seq 200); do [ -s "$pf" ] && break; sleep 0.05; done
  PORT=$(cat "$pf")
}
start_server 127.0.0.1 disallow; P1=$PORT
start_server 127.0.0.2 404; P2=$PORT
start_server 127.0.0.3 5xx; P3=$PORT
start_server 127.0.0.4 reset; P4=$PORT
A=http://127.0.0.1:$P1 B=http://127.0.0.2:$P2 C=http://127.0.0.3:$P3 E=http://127.0.0.4:$P4
cat > "$WORK/urls.txt" <<URLS
$A/page/1
$A/page/2
$A/private/secret
$A/private/ok
$A/redirect/7
$A/loop
$A/status/404
$A/status/500
$A/flaky/1
$A/busy/1
$A/busyforever/1
$B/drip
$B/big
$B/bigchunked
$B/reset/1
$B/resetonce/1
$B/shortcl/1
$B/gzip/1
$B/chunked/1
$B/latin1
$C/page/9
$E/page/10
ftp://127.0.0.1/file
not a url
$A/page/1
http://127.0.0.1:1/page/1
URLS
cat > "$WORK/expect.txt" <<EXP
/page/2 fetched
/private/secret skipped robots
/private/ok fetched
/redirect/7 fetched
/loop failed too_many_redirects
/status/404 failed http_404
/status/500 failed http_500
/flaky/1 fetched
/busy/1 fetched
/busyforever/1 failed http_429
/drip failed stalled
/big failed too_large
/bigchunked failed too_large
/reset/1 failed reset
/resetonce/1 fetched
/shortcl/1 failed cut_short
/gzip/1 fetched
/chunked/1 fetched
/latin1 fetched
/page/9 skipped robots_unavailable
/page/10 failed reset
/file skipped scheme
url skipped invalid_url
:1/page/1 failed connect
EXP
OPTS=(--wait 0 --retry-wait 0.2 --read-timeout 1 --max-size 1M --tries 3 --max-retry-after 10)
"$D" -o "$WORK/out" "${OPTS[@]}" "$WORK/urls.txt" 2> "$WORK/run1.err"; rc=$?
if [ $rc = 0 ]; then pass download_exit; else fail download_exit "exit $rc: $(tail -5 "$WORK/run1.err")"; fi
if (cd "$ROOT/tests/e2e" && "$PY" check_download.py "$WORK/out" "$WORK/out/download.log.jsonl" "$WORK/urls.txt" \
      --expect "$WORK/expect.txt") > "$WORK/check1" 2>&1; then pass download_outcomes_and_warcio_payloads
else fail download_outcomes_and_warcio_payloads "$(head -c 1500 "$WORK/check1")"; fi
# every URL counted once: 26 in = 10 fetched + 11 failed + 5 skipped (duplicate, robots x2, scheme, invalid)
if grep -q '26 URLs in: 10 kept, 16 dropped (10 fetched now: .*; 0 done by an earlier run' "$WORK/run1.err" &&
   [ "$(grep -E '^  dropped failed/' "$WORK/run1.err" | awk '{ s += $3 } END { print s }')" = 11 ] &&
   [ "$(grep -E '^  dropped skipped/' "$WORK/run1.err" | awk '{ s += $3 } END { print s }')" = 5 ] &&
   grep -qE '^  dropped skipped/duplicate +1 URLs$' "$WORK/run1.err"; then pass download_summary_accounts
else fail download_summary_accounts "$(cat "$WORK/run1.err")"; fi
# the Retry-After of /busy/1 was honoured: its second request came a second after the first
sec=$("$PY" -c 'import json,sys; print([json.loads(l)["seconds"] for l in open(sys.argv[1]) if "/busy/1" in l][0])' "$WORK/out/download.log.jsonl")
if "$PY" -c "import sys; sys.exit(0 if 0.95 <= $sec < 5 else 1)"; then pass download_retry_after; else fail download_retry_after "took $sec s"; fi
# the WARC files are what extract reads: the latin-1 page decoded
"$BIN/extract" -q --mode all "$WORK/out" > "$WORK/docs.jsonl"
if grep -q 'Déjà vu, naïve façade' "$WORK/docs.jsonl" && [ "$(wc -l < "$WORK/docs.jsonl")" = 10 ]; then pass download_then_extract
else fail download_then_extract "$(head -c 600 "$WORK/docs.jsonl")"; fi

# A redirect to another host is a request to that host: its robots.txt applies (a disallowed
# target is skipped, an allowed one fetched) and so does its wait (--wait 1.5: A's robots.txt at
# 0 s, A's page at 1.5 s, the page B redirects to A at 3 s, not at once when B's redirect comes).
printf '%s\n' "$B/goto/127.0.0.1:$P1/private/secret" "$B/goto/127.0.0.1:$P1/private/ok" > "$WORK/redir.txt"
"$D" -o "$WORK/redir" --wait 0 "$WORK/redir.txt" 2> "$WORK/redir.err"
"$PY" - "$WORK/redir/download.log.jsonl" > "$WORK/redir.out" 2>&1 <<'PY'
import json, sys
got = {json.loads(l)["url"].rsplit("/", 2)[-1]: json.loads(l) for l in open(sys.argv[1])}
s, o = got.get("secret", {}), got.get("ok", {})
ok = s.get("status") == "skipped" and s.get("reason") == "robots" and o.get("status") == "fetched" and o.get("final_url", "").endswith("/private/ok")
sys.exit(0 if ok else print(got) or 1)
PY
if [ $? = 0 ]; then pass redirect_target_robots; else fail redirect_target_robots "$(cat "$WORK/redir.out" "$WORK/redir.err" | head -c 800)"; fi
printf '%s\n' "$A/page/w1" "$B/goto/127.0.0.1:$P1/page/w2" > "$WORK/redirw.txt"
t0=$(date +%s.%N)
"$D" -o "$WORK/redirw" --wait 1.5 "$WORK/redirw.txt" 2> "$WORK/redirw.err"
t1=$(date +%s.%N)
if "$PY" -c "import sys; sys.exit(0 if $t1 - $t0 >= 2.9 else 1)" && grep -q '2 URLs in: 2 kept' "$WORK/redirw.err"; then
  pass redirect_target_wait; else fail redirect_target_wait "$(echo "$t1 - $t0" | bc) s: $(cat "$WORK/redirw.err")"; fi

# The same command again: everything was done; nothing fetched, the log unchanged.
cp "$WORK/out/download.log.jsonl" "$WORK/log1"
ls "$WORK/out" > "$WORK/ls1"
"$D" -o "$WORK/out" "${OPTS[@]}" "$WORK/urls.txt" 2> "$WORK/run2.err"
if grep -q '26 URLs in: 26 kept, 0 dropped (0 fetched now: .*; 26 done by an earlier run' "$WORK/run2.err" &&
   cmp -s "$WORK/log1" "$WORK/out/download.log.jsonl" && ls "$WORK/out" | cmp -s - "$WORK/ls1"; then pass download_rerun_noop
else fail download_rerun_noop "$(cat "$WORK/run2.err")"; fi

# JSON lines (as blacklist_urls writes them), compressed, with a malformed line; rotation.
{ for i in $(seq 1 40); do echo "{\"url\": \"$B/page/j$i\", \"score\": $i}"; done; echo '{"link": "x"}'; } |
  zstd -q > "$WORK/urls.jsonl.zst"
"$D" -o "$WORK/rot" --wait 0 --warc-max-size 4k "$WORK/urls.jsonl.zst" 2> "$WORK/rot.err"
nf=$(ls "$WORK/rot"/*.warc.gz 2>/dev/null | wc -l)
for i in $(seq 1 40); do echo "$B/page/j$i"; done > "$WORK/rot.urls"
if [ "$nf" -ge 3 ] && grep -q 'urls.jsonl.zst:41: no "url" string' "$WORK/rot.err" &&
   grep -qE '^  dropped skipped/malformed +1 URLs$' "$WORK/rot.err" &&
   (cd "$ROOT/tests/e2e" && "$PY" check_download.py "$WORK/rot" "$WORK/rot/download.log.jsonl" "$WORK/rot.urls" --all-fetched) > "$WORK/check2" 2>&1
then pass download_jsonl_rotation; else fail download_jsonl_rotation "$nf files; $(cat "$WORK/rot.err" "$WORK/check2" | head -c 800)"; fi

# The log made to agree with the WARC files on a restart: three lines lost (the run ended
# between records and their lines) come back as recovered lines, nothing fetched again; a WARC
# file lost takes its URLs' fetched lines with it and they are fetched again, once.
head -n -3 "$WORK/rot/download.log.jsonl" > "$WORK/rot.log" && printf '{"url": "cut' >> "$WORK/rot.log"
mv "$WORK/rot.log" "$WORK/rot/download.log.jsonl"
"$D" -o "$WORK/rot" --wait 0 --warc-max-size 4k "$WORK/urls.jsonl.zst" 2> "$WORK/rot2.err"
nrec=$(grep -c '"note":"recovered' "$WORK/rot/download.log.jsonl")
if [ "$nrec" = 3 ] && grep -q '(0 fetched now:' "$WORK/rot2.err" &&
   (cd "$ROOT/tests/e2e" && "$PY" check_download.py "$WORK/rot" "$WORK/rot/download.log.jsonl" "$WORK/rot.urls" --all-fetched) > "$WORK/check6" 2>&1
then pass download_log_recovered; else fail download_log_recovered "$nrec recovered; $(cat "$WORK/rot2.err" "$WORK/check6" | head -c 600)"; fi
lost=$(ls "$WORK/rot"/*.warc.gz | tail -1)
nlost=$("$PY" -c 'import sys; from warcio.archiveiterator import ArchiveIterator; print(sum(r.rec_type == "response" for r in ArchiveIterator(open(sys.argv[1], "rb"))))' "$lost")
rm "$lost"
"$D" -o "$WORK/rot" --wait 0 --warc-max-size 4k "$WORK/urls.jsonl.zst" 2> "$WORK/rot3.err"
if [ "$nlost" -ge 1 ] && grep -q "($nlost fetched now:" "$WORK/rot3.err" &&
   (cd "$ROOT/tests/e2e" && "$PY" check_download.py "$WORK/rot" "$WORK/rot/download.log.jsonl" "$WORK/rot.urls" --all-fetched) > "$WORK/check7" 2>&1
then pass download_lost_file_refetched; else fail download_lost_file_refetched "$nlost lost; $(cat "$WORK/rot3.err" "$WORK/check7" | head -c 600)"; fi

# kill -9 at random moments of a run over 10,000 URLs (three hosts), then a run to the end:
# every page exactly once in WARC files warcio reads, every URL once in the log.
for i in $(seq 1 10000); do case $((i % 3)) in 0) echo "$A/slow/k$i" ;; 1) echo "$B/slow/k$i" ;; *) echo "$C/slow/k$i" ;; esac; done > "$WORK/big.urls"
BOPTS=(--wait 0 --per-host 6 -j 18 --no-robots --warc-max-size 200k)
kills=0
for delay in 0.7 1.3 0.4 2.1 0.9; do
  "$D" -q -o "$WORK/big" "${BOPTS[@]}" "$WORK/big.urls" 2>/dev/null &
  pid=$!
  sleep "$delay"
  kill -9 "$pid" 2>/dev/null && kills=$((kills + 1))
  wait "$pid" 2>/dev/null
done
parts=$(ls "$WORK/big" | grep -c '\.part$')
"$D" -o "$WORK/big" "${BOPTS[@]}" "$WORK/big.urls" 2> "$WORK/big.err"; rc=$?
if [ $rc = 0 ] && (cd "$ROOT/tests/e2e" && "$PY" check_download.py "$WORK/big" "$WORK/big/download.log.jsonl" "$WORK/big.urls" --all-fetched) > "$WORK/check3" 2>&1
then pass "download_kill9_resume ($kills kills, $parts .part files salvaged, $(cat "$WORK/check3"))"
else fail download_kill9_resume "exit $rc: $(tail -3 "$WORK/big.err"; head -c 1000 "$WORK/check3")"; fi

# SIGTERM: stops cleanly (exit 130), the open file finished, no .part left; a rerun completes.
for i in $(seq 1 1000); do echo "$A/slow/t$i"; done > "$WORK/term.urls"
"$D" -q -o "$WORK/term" --wait 0 --per-host 4 --no-robots "$WORK/term.urls" 2>/dev/null &
pid=$!
sleep 1
# a second run into the same directory meanwhile is refused
"$D" -q -o "$WORK/term" --no-robots "$WORK/term.urls" 2> "$WORK/lock.err"; lrc=$?
if [ $lrc = 2 ] && grep -q 'another download is writing' "$WORK/lock.err"; then pass download_one_run_per_dir
else fail download_one_run_per_dir "exit $lrc: $(cat "$WORK/lock.err")"; fi
kill -TERM $pid; wait $pid; rc=$?
left=$(ls "$WORK/term" | grep -c '\.part$')
"$D" -q -o "$WORK/term" --wait 0 --per-host 4 --no-robots "$WORK/term.urls"
if [ $rc = 130 ] && [ "$left" = 0 ] &&
   (cd "$ROOT/tests/e2e" && "$PY" check_download.py "$WORK/term" "$WORK/term/download.log.jsonl" "$WORK/term.urls" --all-fetched) > "$WORK/check4" 2>&1
then pass download_sigterm; else fail download_sigterm "exit $rc, $left .part; $(head -c 600 "$WORK/check4")"; fi

# HTTPS (a self-signed certificate made here): refused as "tls" by default, fetched with
# --no-check-certificate, the payload as sent.
if openssl req -x509 -newkey rsa:2048 -nodes -keyout "$WORK/key.pem" -out "$WORK/cert.pem" -days 2 \
     -subj /CN=127.0.0.5 > /dev/null 2>&1; then
  pf="$WORK/port.tls"
  "$PY" "$ROOT/tests/e2e/http_faults.py" --host 127.0.0.5 --port-file "$pf" --robots 404 --lifetime 120 \
    --tls "$WORK/cert.pem" "$WORK/key.pem" > "$WORK/server.tls.log" 2>&1 &
  SERVERS+=($!)
  for _ in $(seq 200); do [ -s "$pf" ] && break; sleep 0.05; done
  T=https://127.0.0.5:$(cat "$pf")
  printf '%s\n' "$T/page/s1" "$T/gzip/s2" > "$WORK/tls.urls"
  "$D" -q -o "$WORK/tls1" --wait 0 "$WORK/tls.urls"
  "$D" -q -o "$WORK/tls2" --wait 0 --no-check-certificate "$WORK/tls.urls"
  if [ "$(grep -c '"reason":"tls"' "$WORK/tls1/download.log.jsonl")" = 2 ] &&
     (cd "$ROOT/tests/e2e" && "$PY" check_download.py "$WORK/tls2" "$WORK/tls2/download.log.jsonl" "$WORK/tls.urls" --all-fetched) > "$WORK/check5" 2>&1
  then pass download_https; else fail download_https "$(cat "$WORK/tls1/download.log.jsonl" "$WORK/check5" | head -c 800)"; fi
else fail download_https "openssl could not make a certificate (scripts/setup/install_deps.sh --test installs openssl)"; fi

# make data's first step (scripts/make/data.mk URLS=...): blacklist_urls, download, extract.
for i in 1 2 3; do echo "$A/page/m$i"; done > "$WORK/mk.urls"; echo "$A/photo.jpg" >> "$WORK/mk.urls"
make --no-print-directory -C "$ROOT" -f scripts/make/data.mk BIN="$BIN" B="$WORK/mk" URLS="$WORK/mk.urls" \
  DOWNLOAD_FLAGS="--wait 0 -q" "$WORK/mk/web.jsonl.zst" > "$WORK/mk.log" 2>&1
if [ -e "$WORK/mk/warc/.complete" ] && [ "$(zstd -dc "$WORK/mk/web.jsonl.zst" 2>/dev/null | grep -c '/page/m')" = 3 ]; then
  pass download_make_data_urls; else fail download_make_data_urls "$(tail -5 "$WORK/mk.log")"; fi

# Usage errors.
expect_exit download_needs_output 2 "$D" "$WORK/urls.txt"
stderr_has download_needs_output_says "-o DIR is required"
expect_exit download_bad_tries 2 "$D" -o "$WORK/x" --tries 0 "$WORK/urls.txt"
expect_exit download_missing_list 3 "$D" -o "$WORK/x" "$WORK/no-such-list.txt"
stderr_has download_missing_list_named "no-such-list.txt"
