# dedup_pairs.awk - find_duplicates JSON lines -> "A<TAB>B<TAB>J" with A < B,
# pairs with J >= min (ids must not hold '"').
{
  match($0, /"a": "[^"]*"/); a = substr($0, RSTART + 6, RLENGTH - 7)
  match($0, /"b": "[^"]*"/); b = substr($0, RSTART + 6, RLENGTH - 7)
  match($0, /"jaccard": [0-9.]+/); j = substr($0, RSTART + 11, RLENGTH - 11)
  if (j + 0 < min) next
  if (b < a) { t = a; a = b; b = t }
  printf "%s\t%s\t%s\n", a, b, j
}
