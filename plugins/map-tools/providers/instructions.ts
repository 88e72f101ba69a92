/**
 * English turn instructions from a manoeuvre type, a direction modifier and a street
 * name, for engines that return manoeuvres rather than text (OSRM).
 */
export function describeManeuver(type: string, modifier: string | undefined, name: string): string {
  const onto = name ? ` onto ${name}` : '';
  const along = name ? ` on ${name}` : '';
  switch (type) {
    case 'depart':
      return `Head ${modifier ?? 'off'}${along}`;
    case 'arrive':
      return 'Arrive at the destination';
    case 'roundabout':
    case 'rotary':
    case 'roundabout turn':
      return `Enter the roundabout and exit${onto}`;
    case 'exit roundabout':
    case 'exit rotary':
      return `Exit the roundabout${onto}`;
    case 'merge':
      return `Merge${modifier ? ` ${modifier}` : ''}${onto}`;
    case 'on ramp':
      return `Take the ramp${modifier ? ` on the ${modifier}` : ''}${onto}`;
    case 'off ramp':
      return `Take the exit${modifier ? ` on the ${modifier}` : ''}${onto}`;
    case 'fork':
      return `Keep ${modifier ?? 'straight'} at the fork${onto}`;
    case 'end of road':
      return `At the end of the road turn ${modifier ?? 'straight'}${onto}`;
    case 'continue':
    case 'new name':
      return `Continue${modifier && modifier !== 'straight' ? ` ${modifier}` : ''}${onto}`;
    default:
      if (!modifier || modifier === 'straight') return `Go straight${onto}`;
      if (modifier === 'uturn') return `Make a U-turn${onto}`;
      return `Turn ${modifier}${onto}`;
  }
}
