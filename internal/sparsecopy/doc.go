// Package sparsecopy copies a file's bytes and keeps its holes: on Linux,
// SEEK_DATA and SEEK_HOLE find the regions that hold data, [Copy] reads
// and writes only those, at their offsets, and extends the copy to the
// source's size, so that a hole at the end is kept too
// (TestCopyKeepsTheHolesAndTheWholeSize). Elsewhere, or on a file system
// that cannot tell, it copies every byte. [Allocated] says how much disk a
// file takes, which a caller checks free space against.
//
// It works on afero.File, so that a copy goes through the caller's file
// system (the sandbox's), and it checks its context between chunks of
// 1 MiB.
//
// # Why not a library
//
// io.Copy and os.File.ReadFrom (copy_file_range on Linux) keep holes only
// where the kernel and the file system decide to; through afero.File,
// which is what the sandbox hands out, io.Copy writes every zero. The
// figure that decided: tools/fs's TestCopyFileKeepsTheHolesOfSparseFiles
// copies a 2 GiB file holding 12 KiB of data, twice, in about 17 ms on
// ext4, where writing its zeros would read and write 4 GiB and take
// 4 GiB of disk. No library was measured: the copy by regions is 70
// lines over the two whence values the kernel documents (lseek(2)).
package sparsecopy
