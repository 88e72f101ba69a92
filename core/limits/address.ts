import ipaddr from 'ipaddr.js';

/**
 * The key under which a client address is limited: an IPv4 address as it is (also when
 * written IPv4-mapped), an IPv6 address by its /64 prefix, since one host or one home
 * usually holds a whole /64. `request.ip` is already the forwarded address when the hub
 * trusts the proxy that sent it (TRUSTED_PROXIES).
 */
export function addressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(':')}::/64`;
}

/** Headers by which a proxy says it forwards someone else's request. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-real-ip', 'via'];

/**
 * Whether a request comes from this machine itself: a loopback peer that does not say it
 * forwards someone else's request (a reverse proxy on the same host forwards others' from
 * loopback, and says so).
 */
export function fromThisMachine(request: { socket: { remoteAddress?: string | undefined }; headers: Record<string, unknown> }): boolean {
  return isLoopback(request.socket.remoteAddress) && !FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined);
}

export function isLoopback(address: string | undefined): boolean {
  return address !== undefined && ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback';
}
