# Reads AMDGPU assembly (clang -S --cuda-device-only) and prints, for each
# kernel named isa_*, the instructions that carry the memory model:
#   KERNEL: INSTR; INSTR; ...
# cache write-back/invalidate (buffer_wbl2, buffer_invl2, buffer_inv,
# buffer_wbinvl1*), every atomic, every load or store with cache-policy
# bits (glc slc dlc sc0 sc1 nt: the bits are what set the scope), and the
# s_waitcnt vmcnt(0) that follows a write-back or such a load (a release
# waits for earlier stores; an acquire waits for its load), and the first
# store after a fence even without bits (put_signal's signal store: on
# gfx90a a relaxed store carries no scope bits).  Operands are dropped:
# only opcodes and bits are compared.
function flush() { if (k != "") print k ": " seq; k = ""; seq = "" }
function add(s) { seq = seq (seq == "" ? "" : "; ") s }
/^isa_[a-z0-9_]*:/ { flush(); k = $1; sub(/:.*/, "", k); inside = 1; waitable = 0; fenced = 0; next }
inside && /^\.Lfunc_end/ { inside = 0; flush(); next }
inside {
  line = $0; sub(/;.*/, "", line); sub(/\/\/.*/, "", line)
  n = split(line, t, /[ \t,]+/); op = ""
  for (i = 1; i <= n; i++) if (t[i] != "") { op = t[i]; break }
  if (op == "" || op ~ /:$/ || op ~ /^\./) next
  bits = ""
  for (i = 1; i <= n; i++) if (t[i] ~ /^(glc|slc|dlc|sc0|sc1|nt)$/) bits = bits " " t[i]
  if (op == "s_waitcnt") {
    if (waitable && line ~ /vmcnt\(0\)/) { add("s_waitcnt vmcnt(0)"); waitable = 0 }
    next
  }
  if (op ~ /^buffer_(wbl2|invl2|inv|wbinvl1)/) {
    add(op bits); waitable = (op ~ /wbl2/); fenced = (op !~ /wbl2/); next
  }
  if (op ~ /_atomic_/) { add(op bits); waitable = 0; fenced = 0; next }
  if (op ~ /^(flat|global|buffer|scratch)_(load|store)/ && (bits != "" || (fenced && op ~ /store/))) {
    add(op bits); waitable = (op ~ /load/); if (op ~ /store/) fenced = 0; next
  }
}
END { flush() }
