package chat

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"time"
)

// NewID mints a random identifier that sorts by creation time: 48 bits of
// Unix milliseconds followed by 80 random bits, hex-encoded (32 characters).
// It is safe for concurrent use.
func NewID() string {
	var b [16]byte
	var ms [8]byte
	binary.BigEndian.PutUint64(ms[:], uint64(time.Now().UnixMilli()))
	copy(b[:6], ms[2:])
	_, _ = rand.Read(b[6:]) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(b[:])
}
