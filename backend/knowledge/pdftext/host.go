package pdftext

import (
	"context"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/emscripten"
)

// wasmPageSize is the fixed WebAssembly memory page size.
const wasmPageSize = 65536

// instantiateEnv builds the "env" host module: wazero's Emscripten helpers
// (invoke_*, longjmp) plus the handful of JS-library functions that this
// build of PDFium imports. They replace Emscripten's JavaScript glue; time is
// reported in UTC because text extraction never depends on the local zone.
func instantiateEnv(ctx context.Context, r wazero.Runtime, guest wazero.CompiledModule) error {
	exporter, err := emscripten.NewFunctionExporterForModule(guest)
	if err != nil {
		return fmt.Errorf("emscripten exports: %w", err)
	}
	b := r.NewHostModuleBuilder("env")
	exporter.ExportFunctions(b)

	i32 := api.ValueTypeI32
	fn := func(name string, f api.GoModuleFunc, params, results []api.ValueType) {
		b.NewFunctionBuilder().WithGoModuleFunction(f, params, results).Export(name)
	}
	none := []api.ValueType{}

	fn("_abort_js", func(context.Context, api.Module, []uint64) {
		panic("pdfium: abort")
	}, none, none)
	fn("__assert_fail", func(_ context.Context, m api.Module, s []uint64) {
		panic(fmt.Sprintf("pdfium: assertion failed: %s (%s:%d)",
			cString(m, uint32(s[0])), cString(m, uint32(s[1])), int32(s[2])))
	}, []api.ValueType{i32, i32, i32, i32}, none)
	fn("_emscripten_memcpy_js", func(_ context.Context, m api.Module, s []uint64) {
		dst, src, n := uint32(s[0]), uint32(s[1]), uint32(s[2])
		buf, ok := m.Memory().Read(0, m.Memory().Size())
		if !ok || uint64(dst)+uint64(n) > uint64(len(buf)) || uint64(src)+uint64(n) > uint64(len(buf)) {
			panic("pdfium: memcpy out of range")
		}
		copy(buf[dst:dst+n], buf[src:src+n])
	}, []api.ValueType{i32, i32, i32}, none)
	fn("emscripten_date_now", func(_ context.Context, _ api.Module, s []uint64) {
		s[0] = api.EncodeF64(float64(time.Now().UnixMilli()))
	}, none, []api.ValueType{api.ValueTypeF64})
	fn("emscripten_resize_heap", resizeHeap, []api.ValueType{i32}, []api.ValueType{i32})
	fn("_tzset_js", func(_ context.Context, m api.Module, s []uint64) {
		mem := m.Memory()
		mem.WriteUint32Le(uint32(s[0]), 0) // timezone: seconds west of UTC
		mem.WriteUint32Le(uint32(s[1]), 0) // daylight: no DST
		mem.Write(uint32(s[2]), []byte("UTC\x00"))
		mem.Write(uint32(s[3]), []byte("UTC\x00"))
	}, []api.ValueType{i32, i32, i32, i32}, none)
	tm := func(_ context.Context, m api.Module, s []uint64) {
		writeTM(m.Memory(), uint32(s[2]), int64(uint32(s[0]))|int64(int32(s[1]))<<32)
	}
	fn("_localtime_js", tm, []api.ValueType{i32, i32, i32}, none)
	fn("_gmtime_js", tm, []api.ValueType{i32, i32, i32}, none)

	// File-system syscalls: the document is the only file (docfile.go).
	fn("__syscall_openat", sysOpenat, []api.ValueType{i32, i32, i32, i32}, []api.ValueType{i32})
	fn("__syscall_fstat64", sysFstat, []api.ValueType{i32, i32}, []api.ValueType{i32})
	noFile := func(_ context.Context, _ api.Module, s []uint64) {
		s[0] = api.EncodeI32(-errnoENOENT)
	}
	for name, n := range map[string]int{
		"__syscall_fcntl64": 3, "__syscall_ioctl": 3,
		"__syscall_stat64": 2, "__syscall_newfstatat": 4,
		"__syscall_lstat64": 2, "__syscall_getdents64": 3, "__syscall_unlinkat": 3,
		"__syscall_rmdir": 1, "__syscall_ftruncate64": 3,
	} {
		params := make([]api.ValueType, n)
		for i := range params {
			params[i] = i32
		}
		fn(name, noFile, params, []api.ValueType{i32})
	}

	_, err = b.Instantiate(ctx)
	if err != nil {
		return fmt.Errorf("instantiate env: %w", err)
	}
	return nil
}

// WASI error numbers used below.
const (
	wasiESPIPE = 70
)

// instantiateWASI provides the few WASI calls this build imports. wazero's
// own WASI module cannot be used: this build was linked without BigInt
// support, so fd_seek takes its 64-bit offset as two i32 halves. PDFium
// writes diagnostics to stderr, which are discarded, reads the one document
// file (docfile.go) and has no environment.
func instantiateWASI(ctx context.Context, r wazero.Runtime) error {
	i32 := api.ValueTypeI32
	b := r.NewHostModuleBuilder("wasi_snapshot_preview1")
	fn := func(name string, nparams int, f api.GoModuleFunc) {
		params := make([]api.ValueType, nparams)
		for i := range params {
			params[i] = i32
		}
		b.NewFunctionBuilder().WithGoModuleFunction(f, params, []api.ValueType{i32}).Export(name)
	}
	ok := func(_ context.Context, _ api.Module, s []uint64) { s[0] = 0 }
	fn("fd_close", 1, ok)
	fn("fd_sync", 1, ok)
	fn("fd_write", 4, func(_ context.Context, m api.Module, s []uint64) {
		iovs, n, written := uint32(s[1]), uint32(s[2]), uint32(s[3])
		var total uint32
		for i := uint32(0); i < n; i++ {
			l, _ := m.Memory().ReadUint32Le(iovs + i*8 + 4)
			total += l
		}
		m.Memory().WriteUint32Le(written, total)
		s[0] = 0
	})
	fn("fd_read", 4, wasiRead)
	fn("fd_seek", 5, wasiSeek)
	fn("environ_sizes_get", 2, func(_ context.Context, m api.Module, s []uint64) {
		m.Memory().WriteUint32Le(uint32(s[0]), 0)
		m.Memory().WriteUint32Le(uint32(s[1]), 0)
		s[0] = 0
	})
	fn("environ_get", 2, ok)
	if _, err := b.Instantiate(ctx); err != nil {
		return fmt.Errorf("instantiate wasi: %w", err)
	}
	return nil
}

// resizeHeap grows linear memory to at least the requested size, as
// Emscripten's JS runtime does, returning 1 on success and 0 when the
// runtime's memory limit is reached (malloc then returns NULL, and the
// instance's state remembers it: whatever fails next failed for memory).
func resizeHeap(ctx context.Context, m api.Module, s []uint64) {
	requested := uint64(uint32(s[0]))
	cur := uint64(m.Memory().Size())
	if requested <= cur {
		s[0] = 1
		return
	}
	// Grow by 20% more than asked, like Emscripten, to avoid one call per malloc.
	want := requested + requested/5
	pages := (want - cur + wasmPageSize - 1) / wasmPageSize
	if _, ok := m.Memory().Grow(uint32(pages)); ok {
		s[0] = 1
		return
	}
	exact := (requested - cur + wasmPageSize - 1) / wasmPageSize
	if _, ok := m.Memory().Grow(uint32(exact)); ok {
		s[0] = 1
		return
	}
	if st := stateOf(ctx); st != nil {
		st.memoryRefused = true
	}
	s[0] = 0
}

// writeTM fills a C struct tm (int32 fields) for a Unix time, in UTC.
func writeTM(mem api.Memory, ptr uint32, unix int64) {
	t := time.Unix(unix, 0).UTC()
	var b [44]byte
	fields := []int32{
		int32(t.Second()), int32(t.Minute()), int32(t.Hour()), int32(t.Day()),
		int32(t.Month()) - 1, int32(t.Year() - 1900), int32(t.Weekday()),
		int32(t.YearDay() - 1), 0, 0,
	}
	for i, v := range fields {
		binary.LittleEndian.PutUint32(b[i*4:], uint32(v))
	}
	mem.Write(ptr, b[:40])
}

// cString reads a NUL-terminated string from guest memory (for diagnostics).
func cString(m api.Module, ptr uint32) string {
	var out []byte
	for i := uint32(0); i < 4096; i++ {
		c, ok := m.Memory().ReadByte(ptr + i)
		if !ok || c == 0 {
			break
		}
		out = append(out, c)
	}
	return string(out)
}
