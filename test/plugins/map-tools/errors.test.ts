import t from 'tap';
import { HubError } from '../../../core/errors.js';
import { InputError, UpstreamError } from '../../../plugins/map-tools/errors.js';
import { selectTools } from '../../../plugins/map-tools/selection.js';
import { mapSettingsFromEnvironment } from '../../../plugins/map-tools/settings.js';

t.test('the two tool failures are hub errors with their codes', async (t) => {
  const input = new InputError('name a place');
  t.ok(input instanceof HubError);
  t.match(input, { name: 'InputError', code: 'HUB_ERR_MAP_INPUT', message: 'name a place' });
  const cause = new TypeError('fetch failed');
  const upstream = new UpstreamError('geocoder_a', undefined, 'the service could not be reached', { cause, unreachable: true });
  t.ok(upstream instanceof HubError);
  t.match(upstream, { name: 'UpstreamError', code: 'HUB_ERR_MAP_UPSTREAM', status: undefined, message: 'geocoder_a failed: the service could not be reached', unreachable: true, transient: false });
  t.equal(upstream.cause, cause);
  t.match(new UpstreamError('routing engine', 503, 'busy'), { code: 'HUB_ERR_MAP_UPSTREAM', status: 503, message: 'routing engine answered HTTP 503: busy', unreachable: false, transient: true });
  t.equal(new UpstreamError('routing engine', undefined, 'no answer within 5 ms').transient, true, 'a timeout may pass');
  t.equal(new UpstreamError('routing engine', 400, 'NoSegment').transient, false, 'a refusal will not');
});

t.test('map settings that do not parse stop the start with a code', async (t) => {
  t.throws(() => mapSettingsFromEnvironment({ MAP_TIMEOUT_MS: '-5' }), { name: 'StartupError', code: 'HUB_ERR_MAP_SETTING_INVALID', message: /MAP_TIMEOUT_MS/ });
  t.throws(() => selectTools('route,teleport', undefined), { name: 'StartupError', code: 'HUB_ERR_MAP_SETTING_INVALID', message: /"teleport"/ });
});
