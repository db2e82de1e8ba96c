#!/usr/bin/env bash
# plot_loss.sh LOG.jsonl OUT.svg - the loss curve of a training run as an SVG
# picture (no Python, no plotting library): training loss per logged interval,
# validation loss points, and the unigram entropy of the training tokens (the
# loss of a model that ignores context) as a dashed line; with --eval-tasks, the
# zero-shot accuracy of the first task (HellaSwag's acc_norm when it is scored, as
# llm.c's plot) on a right-hand axis from 0 to 1. Written to a temporary name and renamed.
set -euo pipefail
if [ $# != 2 ]; then echo "usage: plot_loss.sh LOG.jsonl OUT.svg" >&2; exit 2; fi
log=$1 out=$2
[ -r "$log" ] || { echo "plot_loss.sh: cannot read $log" >&2; exit 2; }
tmp="$out.tmp-$$"
awk -v title="$(basename "$(dirname "$log")")" '
function num(key,   m) { if (match($0, "\"" key "\":[-0-9.eE+]+")) { m = substr($0, RSTART + length(key) + 3, RLENGTH - length(key) - 3); return m + 0 } return "" }
/"lm_loss":[-0-9]/ { it = num("iteration"); l = num("lm_loss"); tx[++nt] = it; ty[nt] = l }
/"val_loss":/ { it = num("iteration"); l = num("val_loss"); vx[++nv] = it; vy[nv] = l }
/"unigram_entropy":/ { h = num("unigram_entropy") }
/"tasks":\{/ { s = $0; t = ""
  if (match(s, /"hellaswag[^"]*":\{[^}]*\}/)) t = substr(s, RSTART, RLENGTH)
  else if (match(s, /"tasks":\{"[^"]*":\{[^}]*\}/)) { t = substr(s, RSTART + 9, RLENGTH - 9) }
  if (t != "") { an = t; sub(/^"/, "", an); sub(/".*/, "", an); key = t ~ /acc_norm/ ? "acc_norm" : "acc"
    v = t; sub(".*\"" key "\":", "", v); sub(/[,}].*/, "", v); ax[++na] = num("iteration"); ay[na] = v + 0; aname = an " " key } }
END {
  if (nt == 0) { print "plot_loss.sh: no training loss in the log" > "/dev/stderr"; exit 1 }
  xmin = tx[1]; xmax = tx[1]; ymin = ty[1]; ymax = ty[1]
  for (i = 1; i <= nt; i++) { if (tx[i] > xmax) xmax = tx[i]; if (tx[i] < xmin) xmin = tx[i]; if (ty[i] > ymax) ymax = ty[i]; if (ty[i] < ymin) ymin = ty[i] }
  for (i = 1; i <= nv; i++) { if (vy[i] > ymax) ymax = vy[i]; if (vy[i] < ymin) ymin = vy[i] }
  if (h != "") { if (h > ymax) ymax = h; if (h < ymin) ymin = h }
  if (xmax == xmin) xmax = xmin + 1; if (ymax == ymin) ymax = ymin + 1
  xmin = 0; ymin = int(ymin); ymax = int(ymax) + 1
  W = 720; H = 420; L = 60; R = 40; T = 40; B = 50; pw = W - L - R; ph = H - T - B
  printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n", W, H, W, H
  printf "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H
  printf "<text x=\"%d\" y=\"22\" font-size=\"14\">loss (nats/token): %s</text>\n", L, title
  for (k = ymin; k <= ymax; k++) { y = T + ph - (k - ymin) / (ymax - ymin) * ph
    printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d</text>\n", L, y, L + pw, y, L - 6, y + 4, k }
  for (k = 0; k <= 5; k++) { v = xmin + (xmax - xmin) * k / 5; x = L + k / 5 * pw
    printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n", x, T + ph + 18, v }
  printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">iteration</text>\n", L + pw / 2, H - 8
  printf "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" points=\""
  for (i = 1; i <= nt; i++) printf "%.1f,%.1f ", L + (tx[i] - xmin) / (xmax - xmin) * pw, T + ph - (ty[i] - ymin) / (ymax - ymin) * ph
  printf "\"/>\n"
  for (i = 1; i <= nv; i++) printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"#d62728\"/>\n", L + (vx[i] - xmin) / (xmax - xmin) * pw, T + ph - (vy[i] - ymin) / (ymax - ymin) * ph
  if (h != "") { y = T + ph - (h - ymin) / (ymax - ymin) * ph
    printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#555\" stroke-dasharray=\"6,4\"/>\n", L, y, L + pw, y }
  printf "<g transform=\"translate(%d,%d)\"><line x1=\"0\" y1=\"0\" x2=\"20\" y2=\"0\" stroke=\"#1f77b4\" stroke-width=\"2\"/><text x=\"26\" y=\"4\">training</text>", L + pw - 300, T + 12
  printf "<circle cx=\"100\" cy=\"0\" r=\"3.5\" fill=\"#d62728\"/><text x=\"108\" y=\"4\">validation</text>"
  printf "<line x1=\"185\" y1=\"0\" x2=\"205\" y2=\"0\" stroke=\"#555\" stroke-dasharray=\"6,4\"/><text x=\"211\" y=\"4\">unigram entropy</text></g>\n"
  if (na > 0) { # the task accuracy: right-hand axis, 0 to 1
    for (k = 0; k <= 4; k++) { y = T + ph - k / 4 * ph
      printf "<text x=\"%d\" y=\"%.1f\" fill=\"#2ca02c\">%.2f</text>\n", L + pw + 2, y + 4, k / 4 }
    printf "<polyline fill=\"none\" stroke=\"#2ca02c\" stroke-width=\"1.2\" points=\""
    for (i = 1; i <= na; i++) printf "%.1f,%.1f ", L + (ax[i] - xmin) / (xmax - xmin) * pw, T + ph - ay[i] * ph
    printf "\"/>\n"
    for (i = 1; i <= na; i++) printf "<rect x=\"%.1f\" y=\"%.1f\" width=\"6\" height=\"6\" fill=\"#2ca02c\"/>\n", L + (ax[i] - xmin) / (xmax - xmin) * pw - 3, T + ph - ay[i] * ph - 3
    printf "<g transform=\"translate(%d,%d)\"><rect x=\"0\" y=\"-3\" width=\"6\" height=\"6\" fill=\"#2ca02c\"/><text x=\"12\" y=\"4\">%s (right axis, zero-shot)</text></g>\n", L + pw - 300, T + 30, aname }
  printf "</svg>\n"
}' "$log" > "$tmp" || { rm -f "$tmp"; exit 1; }
mv -f "$tmp" "$out"
