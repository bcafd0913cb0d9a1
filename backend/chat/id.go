package chat

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"sync"
	"time"
)

// idState makes NewID monotonic inside one process: ids minted in the same
// millisecond increment the previous random part instead of drawing a new
// one, so creation order is also sort order (as in ULID's monotonic mode).
var idState struct {
	sync.Mutex
	ms   uint64
	last [10]byte
}

// NewID mints an identifier that sorts by creation time: 48 bits of Unix
// milliseconds followed by 80 bits that are random for the first id of each
// millisecond and incremented after it, hex-encoded (32 characters). It is
// safe for concurrent use.
func NewID() string {
	var b [16]byte
	ms := uint64(time.Now().UnixMilli())
	idState.Lock()
	if ms <= idState.ms {
		ms = idState.ms // the clock went back or stood still: stay monotonic
		increment(idState.last[:])
	} else {
		idState.ms = ms
		_, _ = rand.Read(idState.last[:]) // never fails on supported platforms
		idState.last[0] &= 0x7f           // leave room to increment
	}
	copy(b[6:], idState.last[:])
	idState.Unlock()
	var msb [8]byte
	binary.BigEndian.PutUint64(msb[:], ms)
	copy(b[:6], msb[2:])
	return hex.EncodeToString(b[:])
}

func increment(b []byte) {
	for i := len(b) - 1; i >= 0; i-- {
		b[i]++
		if b[i] != 0 {
			return
		}
	}
}
