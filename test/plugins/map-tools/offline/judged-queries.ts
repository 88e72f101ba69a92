/**
 * Geocoding queries a person would type about the Monaco extract, each with the answer a
 * person would accept, judged from the extract itself (names, tags and positions read
 * with osmium), never from what the engine returns. `expect` lists the elements that are
 * that place (a building and its multipolygon, a quarter's node and its boundary); a
 * street is any way of that name; `none` is a place the extract does not hold.
 */
export interface JudgedQuery {
  query: string;
  expect: readonly string[] | { street: string } | 'none';
  /** A misspelling: geocoder_a is not typo-tolerant, so "no match" is as right as the place from it (geocoder_b must find the place). */
  typo?: true;
  why: string;
}

const STATION = ['node/642295507', 'relation/5844022'];
const BEACH = ['relation/2254506', 'way/25082161'];
const CATHEDRAL = ['relation/5398476'];
const PALACE = ['way/38545604', 'relation/393226'];
const STADIUM = ['way/49209155'];
const FONTVIEILLE_PORT = ['relation/2220208'];
const CASINO = ['way/161769674'];
const MONACO = ['node/1790048269', 'relation/2220322', 'relation/36990', 'relation/1124039'];

export const JUDGED_QUERIES: readonly JudgedQuery[] = [
  // Landmarks by their own (French) names.
  { query: 'Stade Louis II', expect: STADIUM, why: 'leisure=stadium named so' },
  { query: 'Musée Océanographique', expect: ['way/23715051'], why: 'tourism=museum named so' },
  { query: 'Casino de Monte-Carlo', expect: CASINO, why: 'amenity=casino "Casino de Monte Carlo"' },
  { query: 'Palais Princier', expect: PALACE, why: 'historic=castle castle_type=palace "Palais Princier de Monaco", and its multipolygon "Palais Princier"' },
  { query: 'Jardin Exotique', expect: ['way/157455610', 'node/4011405437', 'relation/5986473'], why: 'the garden (leisure=garden) and the quarter around it share the name' },
  { query: 'Grimaldi Forum', expect: ['node/1699777422', 'way/94452775'], why: 'the attraction node and the building' },
  { query: 'Jardin Japonais', expect: ['way/157719658'], why: 'leisure=park named so' },
  { query: 'Roseraie Princesse Grace', expect: ['way/177052156'], why: 'leisure=garden named so' },
  { query: 'Port Hercule', expect: ['node/2104719159', 'relation/2221179'], why: 'leisure=marina node "Port Hercule", and the marina area "Port Hercule de Monaco"' },
  { query: 'Hôtel de Paris', expect: ['way/157719657'], why: 'tourism=hotel named so' },
  { query: 'Tour Odéon', expect: ['way/334772545'], why: 'the tower (landuse=construction in 2016) named so' },
  { query: 'Palais de Justice', expect: ['node/1788512138'], why: 'amenity=courthouse named so' },
  { query: 'Théâtre Princesse Grace', expect: ['node/1871995867'], why: 'amenity=theatre, spelt "Théatre" in the file' },
  // Places and quarters.
  { query: 'Monaco', expect: MONACO, why: 'place=city node and the boundaries of the city and the country' },
  { query: 'Monte-Carlo', expect: ['node/25258130', 'relation/5986438'], why: 'place=suburb node and the quarter boundary' },
  { query: 'La Condamine', expect: ['node/1780610146', 'relation/2221178'], why: 'place=suburb node and the quarter boundary' },
  { query: 'Beausoleil', expect: ['node/26692120', 'relation/174562'], why: 'place=town node and the commune boundary' },
  // Shops, bars and services by name.
  { query: 'Carrefour', expect: ['node/274497719'], why: 'shop=supermarket named so, the only one' },
  { query: 'Decathlon', expect: ['node/1639759014'], why: 'shop=sports named so' },
  { query: 'Stars n Bars', expect: ['node/267901435'], why: 'amenity=pub named so' },
  { query: 'Café Llorca', expect: ['node/3087622131'], why: 'amenity=restaurant named so' },
  { query: 'Buddha Bar', expect: ['node/3087466917'], why: 'amenity=restaurant named so' },
  { query: 'Pharmacie Internationale', expect: ['node/1712696815'], why: 'amenity=pharmacy named so' },
  { query: 'Maison Mullot', expect: ['node/1661243623'], why: 'shop=bakery named so' },
  { query: 'Fnac', expect: ['node/268113334'], why: 'shop=electronics named so' },
  { query: 'Explorers Pub', expect: ['node/3574643941'], why: 'amenity=pub named so' },
  { query: "Jimmy'z", expect: ['node/2391676637'], why: 'amenity=nightclub named so' },
  { query: 'Ship and Castle', expect: ['node/1794111138'], why: 'amenity=pub "Ship & Castle"' },
  { query: 'Lycée Albert 1er', expect: ['relation/1484190', 'way/104863462'], why: 'the school, as amenity=college and as amenity=school "Lycée Albert-1er"' },
  { query: 'Stade Nautique Rainier III', expect: ['way/197170037'], why: 'amenity=swimming_pool named so' },
  { query: 'Monte Carlo Bay', expect: ['way/94452802', 'way/94452841'], why: 'the two hotel buildings named so' },
  { query: "Chapelle de l'Annonciade", expect: ['way/334875251'], why: 'building=chapel named so' },
  { query: 'Parking du Larvotto', expect: ['node/1079750865', 'node/1878520549'], why: 'the car park of that name (two nodes, its entrances)' },
  // Streets.
  { query: 'Boulevard des Moulins', expect: { street: 'Boulevard des Moulins' }, why: 'six ways of that name' },
  { query: 'Avenue Princesse Grace', expect: { street: 'Avenue Princesse Grace' }, why: 'nineteen ways of that name' },
  { query: 'Quai Antoine 1er', expect: { street: 'Quai Antoine 1er' }, why: 'a way of that name' },
  { query: 'Rue Grimaldi', expect: { street: 'Rue Grimaldi' }, why: 'two ways of that name' },
  { query: 'Boulevard du Larvotto', expect: { street: 'Boulevard du Larvotto' }, why: 'the ways of that name' },
  { query: 'Avenue de la Costa', expect: { street: 'Avenue de la Costa' }, why: 'seven ways of that name' },
  { query: "Place d'Armes", expect: ['way/176075907', 'node/1306034044'], why: 'the square (a roundabout) and the bus station on it' },
  // Addresses.
  { query: '10 Avenue Princesse Grace', expect: ['node/3087622131'], why: 'Café Llorca is addr:housenumber=10 on Avenue Princesse Grace' },
  { query: '7 Rue du Gabian', expect: ['node/1661205494'], why: 'Gildo Pastor Center, 7 Rue du Gabian' },
  { query: '22 Avenue de Grande-Bretagne', expect: ['way/94452665'], why: "Saint Paul's Anglican Church, 22 Avenue de Grande-Bretagne" },
  { query: '11 Avenue Albert II', expect: ['node/3613536310'], why: 'an address node (Le Neptune), 11 Avenue Albert II' },
  // Kinds of place, in English.
  { query: 'Monaco train station', expect: STATION, why: 'railway=station "Monaco - Monte Carlo" and its stop area' },
  { query: 'Larvotto beach', expect: BEACH, why: 'natural=beach "Plage Larvotto" (and its unnamed outline)' },
  { query: 'Monaco Cathedral', expect: CATHEDRAL, why: 'the place of worship named "Cathédrale Notre-Dame-Immaculée"' },
  { query: 'Monaco heliport', expect: ['way/49209159', 'way/177049634'], why: 'the hangar and the terminal named "Héliport de Monaco"' },
  { query: 'Fontvieille harbour', expect: FONTVIEILLE_PORT, why: 'leisure=marina "Port de Fontvieille"' },
  { query: 'Monte Carlo casino', expect: CASINO, why: 'amenity=casino "Casino de Monte Carlo"' },
  { query: 'Monaco zoo', expect: ['node/1661259269'], why: 'tourism=zoo "Le Jardin Animalier"' },
  { query: 'Monaco cemetery', expect: ['way/157456963'], why: 'landuse=cemetery "Cimetière de Monaco"' },
  { query: 'tourist office Monaco', expect: ['way/94399465', 'node/1681932256'], why: 'tourism=information "Office du Tourisme de Monaco", and "Office du Tourisme"' },
  { query: 'Saint Charles church', expect: ['way/94399459'], why: 'amenity=place_of_worship "Église Saint-Charles"' },
  // … in French.
  { query: 'Gare de Monaco', expect: STATION, why: 'the railway station of Monaco' },
  { query: 'Plage du Larvotto', expect: BEACH, why: 'natural=beach "Plage Larvotto"' },
  { query: 'Cathédrale de Monaco', expect: CATHEDRAL, why: 'the cathedral' },
  { query: 'église Fontvieille', expect: ['way/322970859'], why: 'Église Saint-Nicolas, the church of Fontvieille' },
  // … in German.
  { query: 'Bahnhof Monaco', expect: STATION, why: 'the railway station' },
  { query: 'Strand Larvotto', expect: BEACH, why: 'the beach' },
  { query: 'Kathedrale Monaco', expect: CATHEDRAL, why: 'the cathedral' },
  { query: 'Hafen Fontvieille', expect: FONTVIEILLE_PORT, why: 'the marina of Fontvieille' },
  { query: 'Stadion Monaco', expect: STADIUM, why: 'the stadium of Monaco' },
  // … in Italian.
  { query: 'Stazione di Monaco', expect: STATION, why: 'the railway station' },
  { query: 'Spiaggia del Larvotto', expect: BEACH, why: 'the beach' },
  { query: 'Cattedrale di Monaco', expect: CATHEDRAL, why: 'the cathedral' },
  { query: 'Porto di Fontvieille', expect: FONTVIEILLE_PORT, why: 'the marina of Fontvieille' },
  { query: 'Casinò di Monte Carlo', expect: CASINO, why: 'the casino' },
  // … in Spanish.
  { query: 'Estación de tren de Mónaco', expect: STATION, why: 'the railway station' },
  { query: 'Playa de Larvotto', expect: BEACH, why: 'the beach' },
  { query: 'Catedral de Mónaco', expect: CATHEDRAL, why: 'the cathedral' },
  { query: 'Palacio del Príncipe', expect: PALACE, why: "the Prince's palace" },
  { query: 'Estadio de Mónaco', expect: STADIUM, why: 'the stadium' },
  // English names of places named in French.
  { query: "Prince's Palace", expect: PALACE, why: 'castle_type=palace "Palais Princier de Monaco"' },
  { query: 'Oceanographic Museum', expect: ['way/23715051'], why: 'name:en of the Musée Océanographique' },
  { query: 'Exotic Garden', expect: ['way/157455610'], why: 'the botanical garden (leisure=garden) "Jardin Exotique"' },
  { query: 'Japanese Garden', expect: ['way/157719658'], why: 'name:en of the Jardin Japonais' },
  { query: 'Embassy of France', expect: ['node/2838235236'], why: 'name:en "Embassy of France in Monaco"' },
  { query: 'Princess Grace Theatre', expect: ['node/1871995867'], why: 'amenity=theatre "Théatre Princesse Grace"' },
  { query: 'Museum of Prehistoric Anthropology', expect: ['node/1681932253'], why: 'tourism=museum "Musée d\'Anthropologie Préhistorique"' },
  // Postcodes.
  { query: '98000', expect: MONACO, why: 'the postcode of every address in Monaco; no postal boundary in the file' },
  { query: '06240', expect: ['node/26692120', 'relation/174562'], why: 'Beausoleil, tagged addr:postcode=06240' },
  { query: '06190', expect: ['node/26691456', 'relation/174558'], why: 'Roquebrune-Cap-Martin, tagged addr:postcode=06190' },
  { query: '06320', expect: ['node/26698232', 'relation/174956', 'node/26694373', 'relation/174958'], why: "Cap-d'Ail and La Turbie share it" },
  // A name and the area it is in.
  { query: 'Carrefour Fontvieille', expect: ['node/274497719'], why: 'the supermarket of the Fontvieille shopping centre' },
  { query: 'Fairmont Monte Carlo', expect: ['relation/2093796'], why: 'tourism=hotel "Fairmont", in Monte-Carlo' },
  { query: 'Stade Louis II, Fontvieille', expect: STADIUM, why: 'the stadium, in Fontvieille' },
  { query: 'Cafe de Paris, Monte-Carlo', expect: ['way/157719654'], why: 'amenity=cafe "Cafe de Paris", in Monte-Carlo' },
  { query: "McDonald's Fontvieille", expect: ['node/1790048266'], why: 'of the two, the one in the Fontvieille shopping centre' },
  { query: "McDonald's Monte-Carlo", expect: ['node/1699870474'], why: 'of the two, the one on Avenue des Spélugues, Monte-Carlo' },
  { query: 'Hotel Hermitage Monte-Carlo', expect: ['node/1759785871'], why: 'tourism=hotel "Hermitage", in Monte-Carlo' },
  { query: 'Marché U Monte-Carlo', expect: ['node/267885935'], why: 'of the two supermarkets so named, the one in Monte-Carlo (the other is in Roquebrune)' },
  { query: 'post office Fontvieille', expect: ['node/1704462960'], why: 'amenity=post_office "Bureau de Monaco Fontvieille"' },
  { query: 'Novotel Monte-Carlo', expect: ['node/918052396'], why: 'tourism=hotel "Novotel", the only one' },
  { query: 'Hôtel Métropole', expect: ['node/267885777'], why: 'tourism=hotel "Metropole" (not the car park of that name)' },
  // Misspellings.
  { query: 'Stade Luis II', expect: STADIUM, typo: true, why: 'Louis' },
  { query: 'Musee Oceanografique', expect: ['way/23715051'], typo: true, why: 'Océanographique' },
  { query: 'Plase du Casino', expect: { street: 'Place du Casino' }, typo: true, why: 'Place' },
  { query: 'Grimaldi Forun', expect: ['node/1699777422', 'way/94452775'], typo: true, why: 'Forum' },
  { query: 'Boulevard des Moullins', expect: { street: 'Boulevard des Moulins' }, typo: true, why: 'Moulins' },
  { query: 'Jardin Exotiqe', expect: ['way/157455610', 'node/4011405437', 'relation/5986473'], typo: true, why: 'Exotique' },
  // Places the extract does not hold (some share a word with names in it).
  { query: 'Paris', expect: 'none', why: 'a city 700 km away; "Cafe de Paris", "Hôtel de Paris" and others only hold the word' },
  { query: 'London', expect: 'none', why: 'not on this map' },
  { query: 'Eiffel Tower', expect: 'none', why: 'in Paris' },
  { query: 'Gare de Lyon', expect: 'none', why: 'a station in Paris; the stations here are others' },
  { query: 'Berlin Hauptbahnhof', expect: 'none', why: 'a station in Berlin' },
  { query: 'Colosseo', expect: 'none', why: 'in Rome' },
  { query: 'Times Square', expect: 'none', why: 'in New York; the squares here are others' },
  { query: 'Sagrada Familia', expect: 'none', why: 'in Barcelona' },
  { query: 'Big Ben', expect: 'none', why: 'in London' },
  { query: 'Statue of Liberty', expect: 'none', why: 'in New York; "Malizia Statue" only shares a word' },
  { query: 'Nice airport', expect: 'none', why: 'west of the extract; only the boundary of the arrondissement of Nice reaches into it' },
  { query: 'Milan Cathedral', expect: 'none', why: 'in Milan' },
  { query: 'Roma Termini', expect: 'none', why: 'a station in Rome' },
  { query: 'Hotel Negresco', expect: 'none', why: 'in Nice' },
];
