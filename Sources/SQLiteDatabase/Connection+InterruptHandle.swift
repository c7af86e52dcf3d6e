import CSQLite

extension Connection {
    /// A `Sendable` handle that can interrupt a connection from another thread.
    ///
    /// ```swift
    /// let handle = connection.interruptHandle
    /// Thread.detachNewThread { handle.interrupt() }
    /// ```
    public final class InterruptHandle: @unchecked Sendable {
        // @unchecked Sendable is sound: the only thing done with `connection` from this object is
        // `sqlite3_interrupt`, which sqlite.org documents as safe from any thread while the connection is open,
        // and the strong reference keeps it open. If this handle holds the last reference, the connection is
        // closed on whichever thread releases it; no other thread can still be using it at that point.
        private let connection: Connection

        init(connection: Connection) {
            self.connection = connection
        }

        /// Interrupts whatever the connection is running (see ``Connection/interrupt()``).
        public func interrupt() {
            sqlite3_interrupt(connection.handle)
        }
    }

    /// A handle that other threads may use to interrupt this connection; it keeps the connection open.
    public var interruptHandle: InterruptHandle { InterruptHandle(connection: self) }
}
