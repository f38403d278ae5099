//! Who is at the other end of a loopback TCP connection: the kernel's table of TCP
//! sockets (`/proc/net/tcp`) names each socket's owner. A port an adapter dials back
//! to is open to every local user; a connection whose socket another user owns is
//! not our adapter.

use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4};

/// The uid owning the socket at `peer` that is connected to our `local`, looked up in
/// `/proc/net/tcp`. `None` when the table cannot be read or does not list it (IPv6, a
/// socket already gone).
pub async fn owner_uid(peer: SocketAddr, local: SocketAddr) -> Option<u32> {
    let (SocketAddr::V4(peer), SocketAddr::V4(local)) = (peer, local) else {
        return None;
    };
    let table = tokio::fs::read_to_string("/proc/net/tcp").await.ok()?;
    owner_in_table(&table, peer, local)
}

/// The uid of the socket whose local address is `peer` and remote address `local`,
/// in the text of `/proc/net/tcp`.
pub fn owner_in_table(table: &str, peer: SocketAddrV4, local: SocketAddrV4) -> Option<u32> {
    table.lines().skip(1).find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        // sl local_address rem_address st tx:rx tr:when retrnsmt uid ...
        let (own, remote, uid) = (fields.get(1)?, fields.get(2)?, fields.get(7)?);
        (parse_address(own)? == peer && parse_address(remote)? == local)
            .then(|| uid.parse().ok())
            .flatten()
    })
}

/// `0100007F:1F90` as the kernel prints it: the address's four bytes as one
/// native-endian hex number, then the port in hex.
fn parse_address(text: &str) -> Option<SocketAddrV4> {
    let (ip, port) = text.split_once(':')?;
    let ip = u32::from_str_radix(ip, 16).ok()?;
    let port = u16::from_str_radix(port, 16).ok()?;
    Some(SocketAddrV4::new(Ipv4Addr::from(ip.to_ne_bytes()), port))
}

/// This process's effective uid.
pub fn our_uid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loopback(port: u16) -> SocketAddrV4 {
        SocketAddrV4::new(Ipv4Addr::LOCALHOST, port)
    }

    /// 127.0.0.1 as this machine's kernel prints it.
    fn hex_loopback() -> String {
        format!("{:08X}", u32::from_ne_bytes([127, 0, 0, 1]))
    }

    #[test]
    fn the_connecting_socket_names_its_owner() {
        let lo = hex_loopback();
        let table = format!(
            "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n\
             0: {lo}:9C40 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 100 1\n\
             1: {lo}:9C40 {lo}:D431 01 00000000:00000000 00:00000000 00000000     0        0 101 1\n\
             2: {lo}:D431 {lo}:9C40 01 00000000:00000000 00:00000000 00000000  1000        0 102 1\n"
        );
        // Our side (40000 <- 54321) is ours; the dialler's side is uid 1000's.
        assert_eq!(
            owner_in_table(&table, loopback(0xD431), loopback(0x9C40)),
            Some(1000)
        );
        assert_eq!(
            owner_in_table(&table, loopback(0x9C40), loopback(0xD431)),
            Some(0)
        );
        assert_eq!(owner_in_table(&table, loopback(1), loopback(0x9C40)), None);
    }

    #[tokio::test]
    async fn a_real_loopback_connection_is_owned_by_this_process_user() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let _client = tokio::net::TcpStream::connect(addr).await.unwrap();
        let (_server, peer) = listener.accept().await.unwrap();
        assert_eq!(owner_uid(peer, addr).await, Some(our_uid()));
    }
}
