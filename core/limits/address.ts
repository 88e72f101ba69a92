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
