//! Whether `dapvisor mcp --http ADDR` could listen at ADDR: the address parses as the
//! server parses it, and binding it now succeeds (the listener is closed at once).

use std::io::ErrorKind;
use std::net::SocketAddr;

use super::report::Check;

/// What binding the address gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PortReading {
    /// `--http`'s text is no address the server takes.
    BadAddress(String),
    /// Bound, and let go.
    Free(SocketAddr),
    /// Another socket holds it.
    InUse(SocketAddr),
    /// The system refused it (a port below 1024 without privilege, an address not on
    /// this machine, ...).
    Refused(SocketAddr, String),
}

const NAME: &str = "http port";

/// Whether the server could listen there.
pub fn check(r: &PortReading) -> Check {
    match r {
        PortReading::BadAddress(why) => Check::fail(
            NAME,
            format!("--http: {why}"),
            "give IP:PORT (such as 127.0.0.1:7000), a port, or localhost:PORT",
        ),
        PortReading::Free(addr) => {
            Check::ok(NAME, format!("{addr} is free")).fact("address", addr.to_string())
        }
        PortReading::InUse(addr) => Check::fail(
            NAME,
            format!("{addr} is in use by another socket"),
            format!(
                "stop what listens there (`ss -ltnp 'sport = :{}'` names it), or give \
                 --http another port",
                addr.port()
            ),
        )
        .fact("address", addr.to_string()),
        PortReading::Refused(addr, why) => Check::fail(
            NAME,
            format!("{addr} cannot be listened on: {why}"),
            "give a port above 1023 on an address of this machine, such as 127.0.0.1:7000",
        )
        .fact("address", addr.to_string()),
    }
}

/// Parse `text` as `--http` does, and try binding it.
pub fn read(text: &str) -> PortReading {
    let addr = match crate::cli::http_flags::http_addr(text) {
        Ok(addr) => addr,
        Err(why) => return PortReading::BadAddress(why),
    };
    match std::net::TcpListener::bind(addr) {
        Ok(listener) => {
            drop(listener);
            PortReading::Free(addr)
        }
        Err(err) if err.kind() == ErrorKind::AddrInUse => PortReading::InUse(addr),
        Err(err) => PortReading::Refused(addr, err.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::super::report::Status;
    use super::*;

    #[test]
    fn a_port_in_use_fails_naming_it_and_a_free_one_is_fine() {
        let holder = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = holder.local_addr().unwrap().port();
        let reading = read(&port.to_string());
        assert_eq!(reading, PortReading::InUse(holder.local_addr().unwrap()));
        let busy = check(&reading);
        assert_eq!(busy.status, Status::Fail);
        assert!(
            busy.detail.contains(&format!("127.0.0.1:{port} is in use")),
            "{}",
            busy.detail
        );
        assert!(busy.fix.unwrap().contains(&format!("sport = :{port}")));
        drop(holder);
        assert_eq!(check(&read(&port.to_string())).status, Status::Ok);
    }

    #[test]
    fn a_bad_address_or_a_refused_one_fails() {
        let bad = check(&read("localhost"));
        assert_eq!(bad.status, Status::Fail);
        assert!(bad.detail.contains("has no port"), "{}", bad.detail);
        let addr: SocketAddr = "192.0.2.1:7000".parse().unwrap();
        let refused = check(&PortReading::Refused(
            addr,
            "Cannot assign requested address".into(),
        ));
        assert_eq!(refused.status, Status::Fail);
    }
}
