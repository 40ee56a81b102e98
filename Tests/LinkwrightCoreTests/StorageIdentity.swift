/// Where an array's elements are stored: two arrays with the same address are copies of one
/// instance, which is what sharing unchanged files and lists across revisions promises.
func storageAddress<Element>(_ array: [Element]?) -> UnsafeRawPointer? {
    array?.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
}
