extension NSManagedObject {
    /// The value of the property named `key`: reading it is ``value(forKey:)``, writing it is
    /// ``setValue(_:forKey:)``, with their change tracking, faulting and notifications.
    public subscript(key: String) -> Any? {
        get { value(forKey: key) }
        set { setValue(newValue, forKey: key) }
    }
}
