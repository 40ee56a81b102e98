import Foundation

// The C library's `read`, `write` and `sync` under names of their own, for types whose methods of
// the same names hide the global functions there. Called here, at file scope, the plain names
// are the C functions of whichever C library Foundation brings (glibc on Linux, Darwin's libc on
// macOS): no platform module is named.

func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

func systemSync() { sync() }
