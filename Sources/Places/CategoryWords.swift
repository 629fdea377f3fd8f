/// The words people type to ask for places of a kind, in English, German, French, Italian and
/// Spanish, singular and plural (issue 40: `pharmacie` and `bus` found no pharmacy and no bus
/// stop). Kept as data: one line a kind set and language, tab-separated, the kinds (as
/// ``PlaceKind/kind(_:)`` names them) joined by `,`, then the words, folded as ``TextFolding``
/// folds what is typed (no accents, lower case), joined by `|`. `CategoryWordsTests` holds
/// the table to its rules: every kind set in all five languages, no word asking for two sets.
enum CategoryWords {
    static let table = """
        pharmacy	en	pharmacy|pharmacies|chemist|chemists
        pharmacy	de	apotheke|apotheken
        pharmacy	fr	pharmacie|pharmacies
        pharmacy	it	farmacia|farmacie
        pharmacy	es	farmacia|farmacias
        bakery	en	bakery|bakeries
        bakery	de	backerei|backereien|baeckerei|baeckereien|backer|baecker
        bakery	fr	boulangerie|boulangeries
        bakery	it	panetteria|panetterie|panificio|panifici|forno
        bakery	es	panaderia|panaderias
        restaurant	en	restaurant|restaurants
        restaurant	de	gaststatte|gaststatten|gasthaus|gasthof
        restaurant	fr	restaurant|restaurants
        restaurant	it	ristorante|ristoranti|trattoria|trattorie|osteria|osterie
        restaurant	es	restaurante|restaurantes
        cafe	en	cafe|cafes|coffee|coffee shop|coffee shops
        cafe	de	kaffee|kaffeehaus|cafe|cafes
        cafe	fr	cafe|cafes
        cafe	it	caffe|caffetteria|caffetterie
        cafe	es	cafeteria|cafeterias
        supermarket	en	supermarket|supermarkets
        supermarket	de	supermarkt|supermarkte|supermaerkte
        supermarket	fr	supermarche|supermarches
        supermarket	it	supermercato|supermercati
        supermarket	es	supermercado|supermercados
        supermarket,convenience shop	en	grocery|groceries|grocery store
        supermarket,convenience shop	de	lebensmittel|lebensmittelgeschaft
        supermarket,convenience shop	fr	epicerie|epiceries|alimentation
        supermarket,convenience shop	it	alimentari|drogheria
        supermarket,convenience shop	es	tienda de comestibles|colmado|ultramarinos
        bus stop,stop	en	bus stop|bus stops|bus|buses|stop|stops
        bus stop,stop	de	bushaltestelle|bushaltestellen|haltestelle|haltestellen|bus|busse
        bus stop,stop	fr	arret de bus|arrets de bus|arret|arrets|arret d autobus|autobus
        bus stop,stop	it	fermata|fermate|fermata autobus|fermata dell autobus|autobus
        bus stop,stop	es	parada|paradas|parada de autobus|paradas de autobus|autobuses
        atm	en	atm|atms|cash|cash machine|cash machines|cashpoint|cashpoints
        atm	de	geldautomat|geldautomaten|bankomat|bankomaten
        atm	fr	distributeur|distributeurs|distributeur de billets|dab
        atm	it	bancomat|sportello automatico|sportelli automatici
        atm	es	cajero|cajeros|cajero automatico|cajeros automaticos
        bank	en	bank|banks
        bank	de	bank|banken|sparkasse
        bank	fr	banque|banques
        bank	it	banca|banche
        bank	es	banco|bancos
        post office	en	post office|post offices
        post office	de	post|postamt|postamter|postfiliale|postfilialen
        post office	fr	poste|postes|bureau de poste|bureaux de poste|la poste
        post office	it	ufficio postale|uffici postali|posta
        post office	es	correos|oficina de correos|oficinas de correos
        toilets	en	toilet|toilets|wc|restroom|restrooms|loo
        toilets	de	toilette|toiletten|klo
        toilets	fr	toilettes|wc|sanitaires
        toilets	it	bagno|bagni|gabinetto|gabinetti|toilette
        toilets	es	aseo|aseos|servicios|bano|banos
        hotel	en	hotel|hotels
        hotel	de	hotel|hotels|pension|pensionen
        hotel	fr	hotel|hotels
        hotel	it	albergo|alberghi
        hotel	es	hotel|hoteles
        school	en	school|schools
        school	de	schule|schulen
        school	fr	ecole|ecoles|college|colleges|lycee|lycees
        school	it	scuola|scuole
        school	es	escuela|escuelas|colegio|colegios
        church	en	church|churches
        church	de	kirche|kirchen
        church	fr	eglise|eglises
        church	it	chiesa|chiese
        church	es	iglesia|iglesias
        parking	en	parking|car park|car parks|parking lot|parking lots
        parking	de	parkplatz|parkplatze|parkplaetze|parkhaus|parkhauser
        parking	fr	parking|parkings|stationnement
        parking	it	parcheggio|parcheggi
        parking	es	aparcamiento|aparcamientos|estacionamiento|estacionamientos
        fuel	en	fuel|petrol|petrol station|petrol stations|gas station|gas stations
        fuel	de	tankstelle|tankstellen
        fuel	fr	station service|stations service|station essence|carburant
        fuel	it	benzinaio|benzinai|distributore di benzina|distributori di benzina
        fuel	es	gasolinera|gasolineras
        bar,pub	en	bar|bars|pub|pubs
        bar,pub	de	kneipe|kneipen|bar|bars
        bar,pub	fr	bar|bars|bistrot|bistrots
        bar,pub	it	bar|pub
        bar,pub	es	bar|bares
        fast food	en	fast food|takeaway|takeaways
        fast food	de	imbiss|imbisse|schnellimbiss
        fast food	fr	restauration rapide|snack|snacks
        fast food	it	fast food|rosticceria|rosticcerie
        fast food	es	comida rapida
        hospital	en	hospital|hospitals
        hospital	de	krankenhaus|krankenhauser|krankenhaeuser|klinikum|spital
        hospital	fr	hopital|hopitaux
        hospital	it	ospedale|ospedali
        hospital	es	hospital|hospitales
        doctors,clinic	en	doctor|doctors|clinic|clinics
        doctors,clinic	de	arzt|arzte|aerzte|praxis|klinik|kliniken
        doctors,clinic	fr	medecin|medecins|cabinet medical|clinique|cliniques
        doctors,clinic	it	medico|medici|clinica|cliniche|ambulatorio
        doctors,clinic	es	medico|medicos|clinica|clinicas|consultorio
        police	en	police|police station|police stations
        police	de	polizei|polizeiwache
        police	fr	police|gendarmerie|commissariat
        police	it	polizia|carabinieri|questura
        police	es	policia|comisaria
        library	en	library|libraries
        library	de	bibliothek|bibliotheken|bucherei
        library	fr	bibliotheque|bibliotheques|mediatheque
        library	it	biblioteca|biblioteche
        library	es	biblioteca|bibliotecas
        museum	en	museum|museums
        museum	de	museum|museen
        museum	fr	musee|musees
        museum	it	museo|musei
        museum	es	museo|museos
        park	en	park|parks
        park	de	park|parks|grunanlage
        park	fr	parc|parcs|jardin public
        park	it	parco|parchi|giardino pubblico
        park	es	parque|parques
        station	en	station|stations|train station|train stations|railway station
        station	de	bahnhof|bahnhofe|bahnhoefe
        station	fr	gare|gares
        station	it	stazione|stazioni
        station	es	estacion|estaciones|estacion de tren
        drinking water	en	drinking water|water|water fountain|water fountains
        drinking water	de	trinkwasser|trinkbrunnen|wasser
        drinking water	fr	eau potable|eau|fontaine a boire
        drinking water	it	acqua potabile|acqua|fontanella|fontanelle
        drinking water	es	agua potable|agua|fuente de agua
        bench	en	bench|benches
        bench	de	bank zum sitzen|sitzbank|sitzbanke
        bench	fr	banc|bancs
        bench	it	panchina|panchine
        bench	es	banco para sentarse|bancos para sentarse
        playground	en	playground|playgrounds
        playground	de	spielplatz|spielplatze|spielplaetze
        playground	fr	aire de jeux|aires de jeux
        playground	it	parco giochi|parchi giochi
        playground	es	parque infantil|parques infantiles
        taxi	en	taxi|taxis|taxi rank|taxi stand
        taxi	de	taxistand|taxi
        taxi	fr	taxi|taxis|station de taxi
        taxi	it	taxi|posteggio taxi
        taxi	es	parada de taxi|paradas de taxi
        ice cream	en	ice cream
        ice cream	de	eis|eisdiele|eisdielen|eiscafe
        ice cream	fr	glacier|glaciers|glace
        ice cream	it	gelateria|gelaterie|gelato
        ice cream	es	heladeria|heladerias|helado
        beach	en	beach|beaches
        beach	de	strand|strande|straende
        beach	fr	plage|plages
        beach	it	spiaggia|spiagge
        beach	es	playa|playas
        tourist office	en	tourist office|tourist offices|tourist information|visitor centre
        tourist office	de	touristeninformation|touristinfo|fremdenverkehrsamt|verkehrsamt
        tourist office	fr	office de tourisme|office du tourisme|offices de tourisme|syndicat d initiative
        tourist office	it	ufficio turistico|uffici turistici|informazioni turistiche
        tourist office	es	oficina de turismo|oficinas de turismo|informacion turistica
        bicycle parking	en	bicycle parking|bike parking
        bicycle parking	de	fahrradstander|fahrradparkplatz
        bicycle parking	fr	parking velo|parc a velos
        bicycle parking	it	parcheggio bici|rastrelliera
        bicycle parking	es	aparcamiento de bicicletas|aparcabicis
        mosque	en	mosque|mosques
        mosque	de	moschee|moscheen
        mosque	fr	mosquee|mosquees
        mosque	it	moschea|moschee
        mosque	es	mezquita|mezquitas
        """

    /// One line of ``table``.
    struct Line {
        var kinds: Set<String>
        var language: String
        var words: [String]
    }

    /// The table's lines; a line without three fields is skipped (the tests refuse it).
    static let lines: [Line] = table.split(separator: "\n").compactMap { line in
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count == 3 else { return nil }
        return Line(
            kinds: Set(fields[0].split(separator: ",").map(String.init)), language: String(fields[1]),
            words: fields[2].split(separator: "|").map(String.init))
    }

    /// Each word and the kinds it asks for.
    static let kinds: [String: Set<String>] = {
        var kinds: [String: Set<String>] = [:]
        for line in lines { for word in line.words { kinds[word, default: []].formUnion(line.kinds) } }
        return kinds
    }()
}
