package model

import (
	"bytes"
	"errors"
	"hash/maphash"
	"math"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"
)

// nameList is a list of names stored back to back in one byte arena: the form in
// which the writers hold the file names of a model. A million names cost two
// allocations and 4 bytes each besides their bytes, instead of a string header and an
// allocation each.
type nameList struct {
	arena []byte
	end   []uint32 // end[i] is the end of name i in arena; it starts at end[i-1] (0 for i = 0)
	hint  int      // names announced by grow: the arena is reserved for them at the first name
}

// errNameArena is returned when a model's names do not fit in a 4 GiB arena.
var errNameArena = errors.New("model: names take 4 GiB or more")

// start returns the offset of name i in the arena.
func (l *nameList) start(i int) uint32 {
	if i == 0 {
		return 0
	}
	return l.end[i-1]
}

// name returns the bytes of name i (aliasing the arena).
func (l *nameList) name(i int) []byte { return l.arena[l.start(i):l.end[i]] }

// len returns the number of names.
func (l *nameList) len() int { return len(l.end) }

// add appends name. A list whose arena would reach 4 GiB keeps growing its index but
// stores the name as empty, and add reports false.
func (l *nameList) add(name string) bool {
	if len(l.arena)+len(name) > math.MaxUint32 {
		l.end = append(l.end, uint32(len(l.arena)))
		return false
	}
	if l.hint > 0 && name != "" {
		l.arena = reserve(l.arena, 16*l.hint)
		l.hint = 0
	}
	l.arena = append(l.arena, name...)
	l.end = append(l.end, uint32(len(l.arena)))
	return true
}

// addBytes is add for a name given as bytes.
func (l *nameList) addBytes(name []byte) bool {
	if len(l.arena)+len(name) > math.MaxUint32 {
		l.end = append(l.end, uint32(len(l.arena)))
		return false
	}
	l.arena = append(l.arena, name...)
	l.end = append(l.end, uint32(len(l.arena)))
	return true
}

// grow reserves room for n more names, and for about 16 bytes each once a name is
// not empty (a model without names reserves no arena).
func (l *nameList) grow(n int) {
	l.end = reserve(l.end, n)
	l.hint += n
}

// clone returns a copy of l that shares no storage with it.
func (l *nameList) clone() nameList {
	return nameList{arena: slices.Clone(l.arena), end: slices.Clone(l.end), hint: l.hint}
}

// given reports whether name i is not empty.
func (l *nameList) given(i int) bool { return l.end[i] != l.start(i) }

// strings returns the names as substrings of one string.
func (l *nameList) strings() []string {
	all := string(l.arena)
	out := make([]string, len(l.end))
	for i, e := range l.end {
		out[i] = all[l.start(i):e]
	}
	return out
}

// fileNameLists returns the file names of the columns and the rows (see fileNames).
// Names are sanitised straight into an arena (rules 1 to 3), or derived from the
// model's names as they are written when that is possible (derivedList), and rule 4 is
// applied by checking that no two names are equal (distinctNames), which is the case in
// a model whose names are unique and leaves every name unchanged; when some are equal,
// the names are made unique by the reference path (uniqueNames).
func (m *Model) fileNameLists() (cols, rows writtenNames, err error) {
	type result struct {
		l   writtenNames
		err error
	}
	// Rows are the larger list in most models: they are done on another goroutine.
	done := make(chan result, 1)
	go func() {
		l, err := fileNameList(&m.rowNames, 'c', objRowName)
		done <- result{l, err}
	}()
	cols, err = fileNameList(&m.colNames, 'x', "")
	r := <-done
	if err != nil {
		return writtenNames{}, writtenNames{}, err
	}
	return cols, r.l, r.err
}

// writtenNames are the file names of one list (the columns or the rows) as the
// writers use them: stored back to back, or derived from the model's names as they
// are written. Rules 1 to 3 turn an ASCII name into the same bytes mapped by
// sanitizedByte, after a '_' for a leading digit or '.' or a keyword, and an empty name
// into the prefix and its index; when rule 4 changes nothing, the file names need no
// copy. For the rows of a million-nonzero model that copy was 5 MB.
type writtenNames struct {
	stored nameList  // the file names, when given is nil
	given  *nameList // the model's names, from which the file names are derived
	lead   []uint64  // derived: bit i is set when name i begins with an added '_'
	prefix byte      // derived: the generated-name prefix
}

// len returns the number of names.
func (w *writtenNames) len() int {
	if w.given != nil {
		return w.given.len()
	}
	return w.stored.len()
}

// append appends file name i to b.
func (w *writtenNames) append(b []byte, i int) []byte {
	if w.given == nil {
		return append(b, w.stored.arena[w.stored.start(i):w.stored.end[i]]...)
	}
	n := w.given.name(i)
	if len(n) == 0 {
		b = append(b, w.prefix)
		return strconv.AppendInt(b, int64(i), 10)
	}
	if cap(b)-len(b) <= len(n) {
		b = slices.Grow(b, len(n)+1)
	}
	if w.lead[i>>6]&(1<<(i&63)) != 0 {
		b = append(b, '_')
	}
	at := len(b)
	b = b[:at+len(n)]
	dst := b[at:]
	dst = dst[:len(n)] // tells the compiler the loop stays in bounds
	for k, c := range n {
		dst[k] = sanitizedByte[c]
	}
	return b
}

// averageLen returns at least the average length of a name (for buffer sizes).
func (w *writtenNames) averageLen() int {
	n := max(w.len(), 1)
	if w.given == nil {
		return len(w.stored.arena)/n + 1
	}
	return len(w.given.arena)/n + 2 + len(strconv.Itoa(n))
}

// strings returns the names as strings.
func (w *writtenNames) strings() []string {
	if w.given == nil {
		return w.stored.strings()
	}
	var arena []byte
	end := make([]int, w.len())
	for i := range end {
		arena = w.append(arena, i)
		end[i] = len(arena)
	}
	all := string(arena)
	out := make([]string, len(end))
	begin := 0
	for i, e := range end {
		out[i] = all[begin:e]
		begin = e
	}
	return out
}

// fileNameList applies rules 1 to 4 to names, prefix being the generated-name prefix
// and reserved a name taken before all others ("" for none).
func fileNameList(names *nameList, prefix byte, reserved string) (writtenNames, error) {
	clean, clash := cleanList(names, prefix)
	if clean {
		l := writtenNames{stored: *names}
		if distinctNames(names, clash, reserved, func(i int, _ []byte) []byte { return names.name(i) }) {
			return l, nil
		}
	} else if w, clash, ok := derivedList(names, prefix); ok {
		if distinctNames(names, clash, reserved, func(i int, b []byte) []byte { return w.append(b[:0], i) }) {
			return w, nil
		}
	}
	l, clash, err := sanitizedList(names, prefix)
	if err != nil {
		return writtenNames{}, err
	}
	if distinctNames(names, clash, reserved, func(i int, _ []byte) []byte { return l.name(i) }) {
		return writtenNames{stored: l}, nil
	}
	unique := uniqueNames(l.strings(), names.strings(), prefix, reserved)
	var out nameList
	out.end = make([]uint32, len(unique))
	for i, n := range unique {
		out.arena = append(out.arena, n...)
		if len(out.arena) > math.MaxUint32 {
			return writtenNames{}, errNameArena
		}
		out.end[i] = uint32(len(out.arena))
	}
	return writtenNames{stored: out}, nil
}

// derivedList returns the file names of names derived as they are written, when every
// given name is ASCII (otherwise ok is false: a rune of several bytes becomes one '_',
// which the derivation does not do). clash is sanitizedList's.
func derivedList(names *nameList, prefix byte) (w writtenNames, clash, ok bool) {
	w = writtenNames{given: names, lead: make([]uint64, (names.len()+63)/64), prefix: prefix}
	var low [len("semi-continuous")]byte
	begin := uint32(0)
	for i, end := range names.end {
		n := names.arena[begin:end]
		begin = end
		if len(n) == 0 {
			continue
		}
		for _, c := range n {
			if c >= utf8.RuneSelf {
				return writtenNames{}, false, false
			}
		}
		lead := n[0] >= '0' && n[0] <= '9' || n[0] == '.'
		if !lead && len(n) <= len(low) {
			for k, c := range n {
				low[k] = sanitizedByte[c]
			}
			lead = low[0] != '_' && isKeyword(low[:len(n)])
		}
		if lead {
			w.lead[i>>6] |= 1 << (i & 63)
		} else if !clash && generatedBytes(n, prefix) {
			// A name of the prefix and digits is unchanged by rules 1 to 3.
			clash = true
		}
	}
	return w, clash, true
}

// cleanList reports whether every name is given and already a file name (rules 1 to
// 3 leave it unchanged), so that names can serve as the file names as it is, without a
// copy; clash is sanitizedList's.
func cleanList(names *nameList, prefix byte) (clean, clash bool) {
	begin := uint32(0)
	for _, end := range names.end {
		n := names.arena[begin:end]
		begin = end
		if len(n) == 0 || n[0] >= '0' && n[0] <= '9' || n[0] == '.' {
			return false, false
		}
		for _, c := range n {
			if c >= utf8.RuneSelf || sanitizedByte[c] != c {
				return false, false
			}
		}
		if len(n) <= len("semi-continuous") && n[0] != '_' && isKeyword(n) {
			return false, false
		}
		if !clash && generatedBytes(n, prefix) {
			clash = true
		}
	}
	return true, clash
}

// sanitizedList is sanitizedNames into a nameList. clash reports whether a given name
// looks like a generated one after sanitising (see uniqueNames).
func sanitizedList(names *nameList, prefix byte) (l nameList, clash bool, err error) {
	// Room for the given names, a '_' each, and a generated name for the others.
	size := len(names.arena) + names.len()*(2+len(strconv.Itoa(names.len())))
	l.arena = make([]byte, 0, size)
	l.end = make([]uint32, names.len())
	for i := range l.end {
		n := names.name(i)
		begin := len(l.arena)
		if len(n) == 0 {
			l.arena = append(l.arena, prefix)
			l.arena = strconv.AppendInt(l.arena, int64(i), 10)
		} else {
			l.arena = appendSanitized(l.arena, n)
			if !clash && generatedBytes(l.arena[begin:], prefix) {
				clash = true
			}
		}
		if len(l.arena) > math.MaxUint32 {
			return nameList{}, false, errNameArena
		}
		l.end[i] = uint32(len(l.arena))
	}
	return l, clash, nil
}

// appendSanitized appends sanitizeName(n) to b for a non-empty n, without allocating.
func appendSanitized(b, n []byte) []byte {
	begin := len(b)
	b = slices.Grow(b, len(n)+1)
	if c := n[0]; c >= '0' && c <= '9' || c == '.' {
		b = append(b, '_')
	}
	// ASCII bytes map through sanitizedByte; the slice is written by index, its
	// capacity being reserved above (a sanitised name is never longer than n + 1).
	w := len(b)
	b = b[:w+len(n)]
	for i := 0; i < len(n); {
		c := n[i]
		if c < utf8.RuneSelf {
			b[w] = sanitizedByte[c]
			w++
			i++
			continue
		}
		// One '_' per rune, as sanitizeName's range loop does (an invalid byte is a
		// rune of its own).
		_, size := utf8.DecodeRune(n[i:])
		b[w] = '_'
		w++
		i += size
	}
	b = b[:w]
	if s := b[begin:]; len(s) <= len("semi-continuous") && s[0] != '_' && isKeyword(s) {
		b = append(b, 0)
		copy(b[begin+1:], b[begin:])
		b[begin] = '_'
	}
	return b
}

// sanitizedByte maps an ASCII byte to itself when nameByte allows it, else to '_'
// (and every other byte to '_': 256 entries, so that indexing needs no bounds check).
var sanitizedByte = func() (t [256]byte) {
	for c := range t {
		t[c] = '_'
		if nameByte(byte(c)) {
			t[c] = byte(c)
		}
	}
	return t
}()

// generatedBytes is looksGenerated for a byte slice.
func generatedBytes(n []byte, prefix byte) bool {
	if len(n) < 2 || n[0] != prefix {
		return false
	}
	for _, c := range n[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// isKeyword reports whether s (ASCII) is an LP keyword ignoring case.
func isKeyword(s []byte) bool {
	// Every keyword begins with one of these letters and none has a '_', which turns
	// away most names (x_1_2_, t_3_) before the map.
	switch s[0] | 0x20 {
	case 'b', 'e', 'f', 'g', 'i', 'm', 's', 't':
	default:
		return false
	}
	if bytes.IndexByte(s, '_') >= 0 {
		return false
	}
	var low [len("semi-continuous")]byte
	for i, c := range s {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		low[i] = c
	}
	return lpKeywords[string(low[:len(s)])]
}

// distinctNames reports whether the file names that take part in rule 4 are all
// different from each other and from reserved: those of the given names
// (names.given(i)), or all when clash. Then uniqueNames would return them unchanged.
// name returns file name i, in scratch or elsewhere.
//
// It compares 64-bit hashes by a two-level radix partition, so that every pass is
// sequential or writes into few streams, where a hash table (or one level of buckets
// over all the names) takes a cache miss per name: at 2.6 million names one level
// took 1.5 s, most of it waiting for memory. The top partBits bits split the hashes
// into partitions (one counting pass, one scatter; the hashes are computed twice
// rather than kept twice); inside a partition, which fits in cache, the next bits
// pick a bucket the same way, and the hashes of a bucket are compared. The names cost
// 8 bytes each. Two equal hashes count as equal names (a false alarm, about 1 in
// 4·10^7 for a million names, only sends the names to the exact path).
func distinctNames(names *nameList, clash bool, reserved string, name func(i int, scratch []byte) []byte) bool {
	// Long lists are split in halves, hashed and scattered on two goroutines, and
	// their partitions checked on two.
	parts := 1
	if names.len() >= parallelNames && runtime.GOMAXPROCS(0) >= 2 {
		parts = 2
	}
	seed := maphash.MakeSeed()
	bound := func(k int) int { return k * names.len() / parts }
	// Pass 1: count the hashes of each half in each partition.
	counts := make([][1 << partBits]int, parts)
	bad := make([]bool, parts)
	run := func(f func(k int)) {
		var wg sync.WaitGroup
		for k := 1; k < parts; k++ {
			wg.Go(func() { f(k) })
		}
		f(0)
		wg.Wait()
	}
	run(func(k int) {
		scratch := make([]byte, 0, 256)
		for i := bound(k); i < bound(k+1); i++ {
			if !clash && !names.given(i) {
				continue
			}
			b := name(i, scratch)
			if len(b) == len(reserved) && string(b) == reserved {
				bad[k] = true
				return
			}
			counts[k][maphash.Bytes(seed, b)>>(64-partBits)]++
		}
	})
	if slices.Contains(bad, true) {
		return false
	}
	// start[p] is where partition p begins; next[k][p] where half k writes into it.
	var start [1<<partBits + 1]int
	next := make([][1 << partBits]int, parts)
	for p := range 1 << partBits {
		at := start[p]
		for k := range parts {
			next[k][p] = at
			at += counts[k][p]
		}
		start[p+1] = at
	}
	count := start[1<<partBits]
	if count < 2 {
		return true
	}
	// Pass 2: scatter the hashes into their partitions.
	hs := make([]uint64, count)
	run(func(k int) {
		scratch := make([]byte, 0, 256)
		nx := &next[k]
		for i := bound(k); i < bound(k+1); i++ {
			if !clash && !names.given(i) {
				continue
			}
			h := maphash.Bytes(seed, name(i, scratch))
			p := h >> (64 - partBits)
			hs[nx[p]] = h
			nx[p]++
		}
	})
	// Each partition on its own.
	dup := make([]bool, parts)
	run(func(k int) {
		var bucket []int32
		var local []uint64
		for p := k * (1 << partBits) / parts; p < (k+1)*(1<<partBits)/parts; p++ {
			if !distinctHashes(hs[start[p]:start[p+1]], 64-partBits, &bucket, &local) {
				dup[k] = true
				return
			}
		}
	})
	return !slices.Contains(dup, true)
}

// partBits is the number of top hash bits that pick a partition in distinctNames.
const partBits = 8

// parallelNames is the length from which distinctNames works on two goroutines.
const parallelNames = 1 << 16

// distinctHashes reports whether the hashes hs, whose bits from below is up are
// spent, are all different: the next bits below pick one of about len(hs)/2 buckets
// (a count and a scatter into local), and the hashes of a bucket are compared.
// bucket and local are scratch, grown as needed.
func distinctHashes(hs []uint64, below int, bucket *[]int32, local *[]uint64) bool {
	n := len(hs)
	if n < 2 {
		return true
	}
	bits := 0
	for 1<<bits < n/2 && bits < below {
		bits++
	}
	shift, mask := below-bits, uint64(1)<<bits-1
	if cap(*bucket) < 1<<bits+1 {
		*bucket = make([]int32, 1<<bits+1)
	}
	if cap(*local) < n {
		*local = make([]uint64, n)
	}
	b, l := (*bucket)[:1<<bits+1], (*local)[:n]
	clear(b)
	for _, h := range hs {
		b[(h>>shift)&mask+1]++
	}
	for k := 1; k < len(b); k++ {
		b[k] += b[k-1]
	}
	for _, h := range hs {
		k := (h >> shift) & mask
		l[b[k]] = h
		b[k]++
	}
	// b[k] is now the end of bucket k.
	begin := int32(0)
	for _, end := range b[:1<<bits] {
		for x := begin; x < end; x++ {
			for y := x + 1; y < end; y++ {
				if l[x] == l[y] {
					return false
				}
			}
		}
		begin = end
	}
	return true
}

// reserve returns s with room for n more elements, like slices.Grow. slices.Grow
// clears the new capacity at once, touching every page of it; reserve allocates with
// make, which leaves memory fresh from the operating system untouched until it is
// written, so room reserved on a generous size hint and never used costs no page
// faults (a million-nonzero model spent a sixth of its build clearing reserved room).
func reserve[S ~[]E, E any](s S, n int) S {
	if n <= cap(s)-len(s) {
		return s
	}
	t := make(S, len(s), len(s)+n)
	copy(t, s)
	return t
}
