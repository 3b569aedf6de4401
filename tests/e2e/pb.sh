# pb.sh - protobuf bytes built by hand, for e2e tests that send messages
# the programs would never encode (missing fields, wrong wire types,
# truncations, oversize payloads).  Sourced after lib.sh (hex_of, text_of).
# Every function prints hex; pb_write turns hex into a file.

# pb_varint N: base-128 varint of N (negative N as its two's complement,
# ten bytes, as protobuf encodes int64).
pb_varint() {
    local n=$1 b out= i
    for ((i = 0; i < 10; i++)); do
        b=$((n & 127))
        n=$(((n >> 7) & 0x01ffffffffffffff))
        [ "$n" -eq 0 ] || b=$((b | 128))
        out+=$(printf '%02x' "$b")
        [ "$n" -ne 0 ] || break
    done
    printf '%s' "$out"
}

# pb_tag FIELD WIRETYPE
pb_tag() { pb_varint $((($1 << 3) | $2)); }
# pb_i FIELD N: a varint field.
pb_i() { printf '%s%s' "$(pb_tag "$1" 0)" "$(pb_varint "$2")"; }
# pb_s FIELD TEXT: a string field.
pb_s() {
    local h
    h=$(hex_of "$2")
    printf '%s%s%s' "$(pb_tag "$1" 2)" "$(pb_varint $((${#h} / 2)))" "$h"
}
# pb_b FIELD HEX: a bytes / embedded message field.
pb_b() { printf '%s%s%s' "$(pb_tag "$1" 2)" "$(pb_varint $((${#2} / 2)))" "$2"; }

# pb_write FILE HEX: the bytes into FILE.
pb_write() {
    text_of "$2" >"$1"
}

# pb_write_padded FILE HEX FIELD N: HEX, then a string field FIELD of N
# bytes "a" (an oversize message without building its hex).
pb_write_padded() {
    text_of "$2$(pb_tag "$3" 2)$(pb_varint "$4")" >"$1"
    head -c "$4" /dev/zero | tr '\0' a >>"$1"
}
