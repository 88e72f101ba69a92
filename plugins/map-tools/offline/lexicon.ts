import { normalize } from './text.js';

/**
 * Words that name a kind of place, in English, French, German, Italian and Spanish, and
 * the map tags that mean that kind. A geocoding query word found here ("beach", "gare",
 * "Kathedrale") is matched by a place with one of the tags, or whose name holds one of the
 * words in any of the languages ("Plage Larvotto" is a beach, "Cathédrale Notre-Dame" a
 * cathedral), so a query in one language finds a place named in another. Written by
 * hand: it is the product's vocabulary, and no library holds one small enough to load.
 */
export interface Concept {
  /** `key=value` (or `key` for any value). */
  tags: readonly string[];
  words: readonly string[];
}

export const CONCEPTS: Readonly<Record<string, Concept>> = {
  station: {
    tags: ['railway=station', 'railway=halt', 'public_transport=station', 'train=yes'],
    words: ['station', 'train', 'railway', 'rail', 'gare', 'sncf', 'bahnhof', 'hauptbahnhof', 'bahn', 'zug', 'stazione', 'treno', 'ferroviaria', 'estacion', 'tren', 'ferrocarril'],
  },
  bus_stop: { tags: ['highway=bus_stop', 'amenity=bus_station'], words: ['bus', 'busstop', 'arret', 'bushaltestelle', 'haltestelle', 'autobus', 'fermata', 'parada', 'autobuses'] },
  beach: { tags: ['natural=beach', 'leisure=beach_resort'], words: ['beach', 'plage', 'strand', 'spiaggia', 'lido', 'playa'] },
  cathedral: { tags: ['building=cathedral'], words: ['cathedral', 'cathedrale', 'kathedrale', 'dom', 'munster', 'cattedrale', 'duomo', 'catedral'] },
  church: {
    tags: ['amenity=place_of_worship', 'building=church', 'building=chapel', 'building=cathedral'],
    words: ['church', 'chapel', 'eglise', 'chapelle', 'sanctuaire', 'kirche', 'kapelle', 'chiesa', 'cappella', 'santuario', 'iglesia', 'capilla'],
  },
  museum: { tags: ['tourism=museum'], words: ['museum', 'musee', 'museo', 'musei', 'museen'] },
  gallery: { tags: ['tourism=gallery'], words: ['gallery', 'galerie', 'galleria', 'galeria'] },
  hotel: { tags: ['tourism=hotel'], words: ['hotel', 'hotels', 'albergo', 'hostal'] },
  hospital: { tags: ['amenity=hospital'], words: ['hospital', 'hopital', 'hospitalier', 'krankenhaus', 'klinikum', 'ospedale', 'ospedaliero'] },
  clinic: { tags: ['amenity=clinic', 'amenity=doctors'], words: ['clinic', 'clinique', 'klinik', 'clinica', 'doctor', 'medecin', 'arzt'] },
  pharmacy: { tags: ['amenity=pharmacy'], words: ['pharmacy', 'chemist', 'drugstore', 'pharmacie', 'apotheke', 'farmacia'] },
  park: { tags: ['leisure=park'], words: ['park', 'parc', 'parco', 'parque'] },
  garden: { tags: ['leisure=garden'], words: ['garden', 'gardens', 'jardin', 'jardins', 'roseraie', 'garten', 'giardino', 'giardini', 'jardines'] },
  harbour: {
    tags: ['leisure=marina', 'harbour=yes', 'landuse=harbour', 'seamark:type=harbour', 'industrial=port'],
    words: ['harbour', 'harbor', 'port', 'marina', 'hafen', 'porto', 'puerto'],
  },
  stadium: { tags: ['leisure=stadium'], words: ['stadium', 'stade', 'stadion', 'stadio', 'estadio'] },
  palace: { tags: ['castle_type=palace', 'historic=palace', 'building=palace'], words: ['palace', 'palais', 'palast', 'palazzo', 'palacio', 'reggia'] },
  castle: { tags: ['historic=castle', 'building=castle'], words: ['castle', 'chateau', 'fort', 'forteresse', 'schloss', 'burg', 'festung', 'castello', 'fortezza', 'castillo', 'fortaleza'] },
  casino: { tags: ['amenity=casino'], words: ['casino', 'kasino', 'spielbank', 'spielcasino', 'casinò'] },
  post_office: { tags: ['amenity=post_office'], words: ['post', 'office', 'poste', 'bureau', 'postamt', 'postfiliale', 'posta', 'postale', 'ufficio', 'correos', 'correo'] },
  police: { tags: ['amenity=police'], words: ['police', 'commissariat', 'gendarmerie', 'polizei', 'polizeiwache', 'polizia', 'questura', 'carabinieri', 'policia', 'comisaria'] },
  fire_station: { tags: ['amenity=fire_station'], words: ['fire', 'firestation', 'caserne', 'pompiers', 'feuerwehr', 'feuerwache', 'pompieri', 'bomberos'] },
  heliport: { tags: ['aeroway=heliport', 'aeroway=helipad'], words: ['heliport', 'helipad', 'hubschrauberlandeplatz', 'eliporto', 'eliporti', 'helipuerto'] },
  airport: { tags: ['aeroway=aerodrome', 'aeroway=terminal'], words: ['airport', 'aeroport', 'flughafen', 'aeroporto', 'aeropuerto'] },
  school: { tags: ['amenity=school', 'amenity=college'], words: ['school', 'ecole', 'lycee', 'college', 'schule', 'gymnasium', 'scuola', 'liceo', 'escuela', 'colegio', 'instituto'] },
  university: { tags: ['amenity=university'], words: ['university', 'universite', 'universitat', 'hochschule', 'universita', 'universidad'] },
  library: { tags: ['amenity=library'], words: ['library', 'bibliotheque', 'mediatheque', 'bibliothek', 'bucherei', 'biblioteca'] },
  theatre: { tags: ['amenity=theatre'], words: ['theatre', 'theater', 'opera', 'oper', 'auditorium', 'teatro'] },
  cinema: { tags: ['amenity=cinema'], words: ['cinema', 'movie', 'movies', 'kino', 'cine'] },
  restaurant: { tags: ['amenity=restaurant'], words: ['restaurant', 'brasserie', 'bistro', 'ristorante', 'trattoria', 'osteria', 'pizzeria', 'restaurante'] },
  cafe: { tags: ['amenity=cafe'], words: ['cafe', 'coffee', 'kaffee', 'cafeteria', 'caffe', 'bar'] },
  bar: { tags: ['amenity=bar', 'amenity=pub'], words: ['bar', 'pub', 'kneipe', 'bierbar', 'birreria', 'taverna'] },
  nightclub: { tags: ['amenity=nightclub'], words: ['nightclub', 'club', 'discotheque', 'disco', 'diskothek', 'discoteca'] },
  supermarket: { tags: ['shop=supermarket'], words: ['supermarket', 'supermarche', 'supermarkt', 'supermercato', 'supermercado', 'grocery'] },
  convenience: { tags: ['shop=convenience'], words: ['convenience', 'epicerie', 'superette', 'lebensmittel', 'alimentari', 'tienda'] },
  bakery: { tags: ['shop=bakery'], words: ['bakery', 'boulangerie', 'backerei', 'panetteria', 'panificio', 'panaderia'] },
  marketplace: { tags: ['amenity=marketplace'], words: ['market', 'marche', 'markt', 'mercato', 'mercado'] },
  mall: { tags: ['shop=mall'], words: ['mall', 'shopping', 'commercial', 'einkaufszentrum', 'commerciale', 'comercial'] },
  bank: { tags: ['amenity=bank'], words: ['bank', 'banque', 'banca', 'banco'] },
  atm: { tags: ['amenity=atm', 'atm=yes'], words: ['atm', 'cashpoint', 'distributeur', 'geldautomat', 'bancomat', 'cajero'] },
  parking: { tags: ['amenity=parking', 'amenity=parking_entrance'], words: ['parking', 'carpark', 'parkplatz', 'parkhaus', 'tiefgarage', 'parcheggio', 'aparcamiento', 'estacionamiento'] },
  fuel: { tags: ['amenity=fuel'], words: ['fuel', 'petrol', 'gas', 'carburant', 'essence', 'tankstelle', 'benzinaio', 'distributore', 'gasolinera'] },
  toilets: { tags: ['amenity=toilets'], words: ['toilet', 'toilets', 'wc', 'restroom', 'toilettes', 'toiletten', 'bagni', 'bagno', 'aseos', 'servicios'] },
  embassy: {
    tags: ['amenity=embassy', 'diplomatic=embassy', 'diplomatic=consulate'],
    words: ['embassy', 'consulate', 'ambassade', 'consulat', 'botschaft', 'konsulat', 'ambasciata', 'consolato', 'embajada', 'consulado'],
  },
  townhall: { tags: ['amenity=townhall'], words: ['townhall', 'cityhall', 'mairie', 'rathaus', 'municipio', 'comune', 'ayuntamiento'] },
  courthouse: { tags: ['amenity=courthouse'], words: ['courthouse', 'court', 'tribunal', 'justice', 'gericht', 'tribunale', 'juzgado'] },
  zoo: { tags: ['tourism=zoo'], words: ['zoo', 'animalier', 'tierpark', 'zoologico'] },
  viewpoint: { tags: ['tourism=viewpoint'], words: ['viewpoint', 'lookout', 'belvedere', 'panorama', 'aussichtspunkt', 'mirador'] },
  playground: { tags: ['leisure=playground'], words: ['playground', 'spielplatz', 'giochi', 'infantil'] },
  swimming_pool: { tags: ['leisure=swimming_pool', 'amenity=swimming_pool', 'sport=swimming'], words: ['pool', 'swimming', 'piscine', 'nautique', 'schwimmbad', 'hallenbad', 'piscina'] },
  sports_centre: { tags: ['leisure=sports_centre', 'leisure=fitness_centre'], words: ['gym', 'fitness', 'sports', 'sporthalle', 'palestra', 'gimnasio', 'polideportivo'] },
  cemetery: { tags: ['landuse=cemetery', 'amenity=grave_yard'], words: ['cemetery', 'graveyard', 'cimetiere', 'friedhof', 'cimitero', 'cementerio'] },
  information: { tags: ['tourism=information'], words: ['information', 'tourist', 'office', 'tourisme', 'touristeninformation', 'turistico', 'turismo'] },
  attraction: { tags: ['tourism=attraction'], words: ['attraction', 'sight', 'sehenswurdigkeit', 'attrazione', 'atraccion'] },
  monument: { tags: ['historic=monument', 'historic=memorial', 'tourism=artwork'], words: ['monument', 'memorial', 'statue', 'denkmal', 'monumento', 'statua', 'estatua'] },
  square: { tags: ['place=square'], words: ['square', 'piazza', 'plaza', 'platz'] },
  ferry: { tags: ['amenity=ferry_terminal'], words: ['ferry', 'cruise', 'croisiere', 'fahre', 'traghetto', 'ferri', 'transbordador'] },
};

/**
 * Words that carry no meaning of their own in a place query: articles, prepositions and
 * the possessive "s" of the five languages. They neither need matching nor count against a name.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  [
    'the',
    'of',
    'a',
    'an',
    'at',
    'in',
    'on',
    's',
    'and',
    'le',
    'la',
    'les',
    'l',
    'de',
    'du',
    'des',
    'd',
    'au',
    'aux',
    'un',
    'une',
    'et',
    'a',
    'en',
    'sur',
    'der',
    'die',
    'das',
    'dem',
    'den',
    'des',
    'von',
    'vom',
    'im',
    'am',
    'zum',
    'zur',
    'und',
    'in',
    'il',
    'lo',
    'gli',
    'i',
    'di',
    'del',
    'della',
    'dello',
    'dei',
    'degli',
    'delle',
    'da',
    'al',
    'alla',
    'e',
    'el',
    'los',
    'las',
    'del',
    'y',
    'al',
  ].map(normalize),
);

/**
 * Words that say a street is a street: a query naming the street without them ("Moulins"
 * for "Boulevard des Moulins") still names it whole.
 */
export const STREET_WORDS: ReadonlySet<string> = new Set(
  [
    'street',
    'road',
    'avenue',
    'lane',
    'drive',
    'way',
    'boulevard',
    'square',
    'place',
    'quay',
    'alley',
    'steps',
    'rue',
    'boulevard',
    'bd',
    'av',
    'chemin',
    'quai',
    'allee',
    'allees',
    'route',
    'montee',
    'descente',
    'escalier',
    'escaliers',
    'impasse',
    'ruelle',
    'passage',
    'promenade',
    'esplanade',
    'corniche',
    'traverse',
    'rampe',
    'sentier',
    'rond',
    'point',
    'tunnel',
    'pont',
    'strasse',
    'weg',
    'gasse',
    'platz',
    'allee',
    'ufer',
    'via',
    'viale',
    'vicolo',
    'piazza',
    'piazzale',
    'largo',
    'corso',
    'strada',
    'salita',
    'scalinata',
    'calle',
    'avenida',
    'paseo',
    'plaza',
    'camino',
    'carretera',
    'callejon',
  ].map(normalize),
);

export interface TagCondition {
  key: string;
  value?: string;
}

/** A concept's tags as conditions. */
export function conceptTags(concept: Concept): TagCondition[] {
  return concept.tags.map((tag) => {
    const [key, value] = tag.split('=') as [string, string | undefined];
    return value === undefined ? { key } : { key, value };
  });
}
