import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * Engram's own retrieval set for bench/Quality.java: multi-session conversations between two people, each turn one
 * memory, and questions labelled with the turns that answer them. Plain JDK, one source file, deterministic (a fixed
 * seed and java.util.Random, whose sequence the JDK specifies):
 * {@code java bench/RecallSet.java target/quality/recallset.json [conversations=24] [seed=20240611]}.
 *
 * <p>Each conversation gives each speaker life events drawn from {@link #EVENTS}: one or two statements (a two-turn
 * event puts its second statement in a later session), a reply, distractor lines that share words with the answer
 * without giving it, and questions in several wordings: {@code same} (the evidence's own words), {@code paraphrase},
 * {@code synonym} (the key words replaced, "bought a car" / "purchase an automobile"), {@code inflection} ("ran" /
 * "run") and {@code two-turn} (it takes both statements). Around them: greetings, small talk and goodbyes. Sessions are
 * days to weeks apart. The output has LoCoMo's shape (conversation.session_N, session_N_date_time, qa with evidence
 * dia_ids) plus each question's {@code kind} and {@code wording}.
 */
public class RecallSet {

    /** A question of an event: its kind, its wording, its text, its answer and which statements answer it. */
    record Q(String kind, String wording, String text, String answer, int... evidence) {
    }

    /** A life event: its choices, its statements with their replies, its questions and its distractors. */
    record Event(String name, String slots, String[] statements, String[] replies, Q[] questions,
            String[] distractors) {
    }

    static final String WHEN = "when", WHAT = "what", WHERE = "where", WHO = "who", MULTI = "multi-hop";
    static final String SAME = "same", PARA = "paraphrase", SYN = "synonym", INFL = "inflection", TWO = "two-turn";

    static Q q(String kind, String wording, String text, String answer, int... evidence) {
        return new Q(kind, wording, text, answer, evidence.length == 0 ? new int[] {0} : evidence);
    }

    static String[] s(String... lines) {
        return lines;
    }

    static Q[] qs(Q... questions) {
        return questions;
    }

    /**
     * The events. In a statement, {@code {slot}} is one of the event's choices ("slot=a|b|c;other=d|e"); in a
     * question {@code {X}} is the speaker's name and {@code {date}} the date of the first statement's session.
     */
    static final List<Event> EVENTS = List.of(
            new Event("car", "color=red|silver|dark green|white|black;model=hatchback|station wagon|pickup|little "
                    + "electric car",
                    s("Big news, I bought a new car on Saturday! A {color} {model}, it still smells like the showroom."),
                    s("No way, congratulations! You have to take me for a drive."),
                    qs(q(WHEN, SAME, "When did {X} buy a new car?", "the Saturday before {date}"),
                            q(WHEN, SYN, "When did {X} purchase an automobile?", "the Saturday before {date}"),
                            q(WHAT, PARA, "What colour is the vehicle {X} got recently?", "{color}"),
                            q(WHAT, SYN, "What sort of automobile did {X} acquire?", "a {color} {model}")),
                    s("My brother keeps asking me which car he should buy, I have no idea.",
                            "The car wash by the station finally reopened.",
                            "Saturday traffic was a nightmare, we sat in the car for an hour.")),
            new Event("race", "race=half marathon|trail race|charity 10k;city=Lisbon|Ghent|Leeds|Porto|Graz|Aarhus",
                    s("I ran the {race} in {city} last weekend, my legs are still sore."),
                    s("That's amazing, how long did it take you?"),
                    qs(q(WHEN, INFL, "When did {X} run the {race}?", "the weekend before {date}"),
                            q(WHERE, INFL, "Where was the race {X} was running in?", "{city}"),
                            q(WHAT, SYN, "What athletic competition did {X} take part in?", "the {race} in {city}"),
                            q(WHERE, SAME, "In which city was the {race} that {X} ran?", "{city}")),
                    s("Running in this heat is miserable, I gave up after a mile.",
                            "There's a race closing the roads near me on Sunday.",
                            "My legs are sore from carrying furniture for my aunt.")),
            new Event("job", "role=pharmacist|data analyst|sound engineer|primary school teacher|carpenter;"
                    + "company=a small clinic|a logistics firm|a recording studio|the city council",
                    s("I start my new job as a {role} on Monday! It's at {company}."),
                    s("Oh wow, that's huge. Nervous?"),
                    qs(q(WHAT, SAME, "What is {X}'s new job?", "{role}"),
                            q(WHAT, SYN, "What position was {X} hired for?", "{role}"),
                            q(WHEN, PARA, "When does {X} begin working in the new role?", "the Monday after {date}"),
                            q(WHERE, SYN, "Which employer took {X} on?", "{company}")),
                    s("Monday mornings are the worst, I need a new coffee machine.",
                            "My cousin hates his job, he wants to quit by summer.",
                            "Have you seen the new bakery on the corner? They're hiring.")),
            new Event("puppy", "pet=Biscuit|Pepper|Miso|Rufus|Juniper|Tofu;breed=beagle|collie|terrier|spaniel",
                    s("We adopted a {breed} puppy from the shelter! We named him {pet}.",
                            "{pet} chewed through my favourite sneakers this morning, I could cry."),
                    s("Aww, send me pictures right now!", "Oh no, the price of having a baby in the house!"),
                    qs(q(WHAT, SYN, "What breed of dog did {X} get?", "a {breed}"),
                            q(MULTI, TWO, "What did {X}'s dog ruin?", "{X}'s favourite sneakers", 0, 1),
                            q(WHO, SAME, "What is the name of the puppy {X} adopted?", "{pet}"),
                            q(WHEN, PARA, "When did {X} bring home a pet from the shelter?", "shortly before {date}")),
                    s("My neighbour's dog barks all night, I'm losing sleep.",
                            "I bought new sneakers last week, they were on sale.",
                            "The shelter near us is asking for old blankets and towels.")),
            new Event("sibling", "sib=sister|brother;sibname=Lena|Tomas|Ines|Karl|Rosa|Dev;city=Montreal|Osaka|"
                    + "Valencia|Krakow|Dublin|Lyon",
                    s("My {sib} {sibname} just moved to {city} for work.",
                            "I booked flights to go see {sibname} next month, I can't wait."),
                    s("That's a big move! Do they like it there?", "You'll have the best time, bring me a souvenir."),
                    qs(q(MULTI, TWO, "Which city is {X} flying to next month?", "{city}", 0, 1),
                            q(WHERE, SAME, "Where did {X}'s {sib} move?", "{city}"),
                            q(WHO, PARA, "Who is {X} going to visit?", "{X}'s {sib} {sibname}", 1),
                            q(WHAT, SYN, "Why did {X}'s sibling relocate?", "for work")),
                    s("Flights are so expensive right now, it's ridiculous.",
                            "I've always wanted to live in another city for a while.",
                            "My neighbour moved away last month and I miss her.")),
            new Event("baking", "item=sourdough bread|a lemon tart|cinnamon rolls|a carrot cake",
                    s("I baked {item} for the first time yesterday, and it actually turned out great."),
                    s("Save me a piece next time!"),
                    qs(q(WHAT, INFL, "What has {X} been baking?", "{item}"),
                            q(WHEN, SAME, "When did {X} bake {item}?", "the day before {date}"),
                            q(WHAT, PARA, "What did {X} make in the oven for the first time?", "{item}")),
                    s("The bakery on my street sells amazing bread.",
                            "I burned the toast this morning, so much for cooking.",
                            "My mom's carrot cake recipe is a family secret.")),
            new Event("lessons", "instr=guitar|piano|cello|drums|violin;teacher=Mr. Alvarez|a retired jazz musician|"
                    + "a student from the conservatory",
                    s("I've started taking {instr} lessons with {teacher}, every Thursday evening."),
                    s("Ooh, you'll have to play something for me."),
                    qs(q(WHAT, SYN, "Which musical instrument is {X} learning?", "{instr}"),
                            q(WHO, SAME, "Who gives {X} {instr} lessons?", "{teacher}"),
                            q(WHEN, PARA, "On what day of the week does {X} have music class?", "Thursday"),
                            q(WHAT, INFL, "What instrument does {X} take a lesson in?", "{instr}")),
                    s("My kid's school has a piano in the hall that nobody plays.",
                            "Thursday evenings I usually do the groceries.",
                            "I tried the drums once at a party and it was so loud.")),
            new Event("apartment", "area=near the river|downtown|by the old harbour|in the north end;"
                    + "floor=third|fifth|top",
                    s("We finally moved into the new apartment {area}, it's on the {floor} floor with a tiny balcony."),
                    s("Finally! Housewarming party when?"),
                    qs(q(WHERE, SAME, "Where is {X}'s new apartment?", "{area}"),
                            q(WHERE, SYN, "In which neighbourhood is {X}'s new flat?", "{area}"),
                            q(WHAT, PARA, "Which storey does {X} live on now?", "the {floor} floor"),
                            q(WHEN, INFL, "When did {X} move house?", "shortly before {date}")),
                    s("Apartment prices downtown are insane these days.",
                            "My balcony plants all died in the frost.",
                            "A friend of mine has had moving boxes in her hallway for a year.")),
            new Event("wedding", "who=best friend Nora|cousin Priya|old roommate Sam|colleague Jonas;"
                    + "place=a vineyard|a lighthouse|a barn in the hills|a beach",
                    s("I went to my {who}'s wedding on Saturday, it was held at {place}."),
                    s("That sounds gorgeous. Did you dance?"),
                    qs(q(WHO, SAME, "Whose wedding did {X} go to?", "{X}'s {who}'s"),
                            q(WHERE, SYN, "Where was the marriage ceremony {X} attended?", "at {place}"),
                            q(WHEN, PARA, "When did {X} see a friend get married?", "the Saturday before {date}")),
                    s("Weddings are so expensive these days.",
                            "I had a dream I was late to my own wedding.",
                            "There's a lighthouse tour on Sunday if you're interested.")),
            new Event("injury", "part=wrist|ankle|collarbone;how=falling off my bike|slipping on ice|at climbing "
                    + "practice",
                    s("Ugh, I broke my {part} {how}. Six weeks in a cast."),
                    s("Oh no! I'm so sorry, tell me if you need anything."),
                    qs(q(WHAT, SAME, "What did {X} break?", "{X}'s {part}"),
                            q(WHAT, SYN, "What injury did {X} suffer?", "a broken {part}"),
                            q(WHAT, PARA, "How did {X} get hurt?", "{how}"),
                            q(WHEN, SYN, "When did {X} get a fracture?", "shortly before {date}")),
                    s("My bike has a flat tyre, again.",
                            "The ice on the pavement is terrible this week.",
                            "My brother broke his phone screen again, the third time this year.")),
            new Event("trip", "country=Iceland|Vietnam|Portugal|Peru|Morocco|Norway;activity=hiking on glaciers|eating "
                    + "street food|surfing|visiting ruins",
                    s("Just got back from two weeks in {country}! We spent most days {activity}."),
                    s("I'm so jealous, show me the photos!"),
                    qs(q(WHERE, SAME, "Where did {X} spend two weeks?", "{country}"),
                            q(WHERE, SYN, "Which country did {X} travel to on holiday?", "{country}"),
                            q(WHAT, PARA, "What did {X} do most days on the trip?", "{activity}"),
                            q(WHEN, SYN, "When did {X} return from abroad?", "just before {date}")),
                    s("I'd love to travel somewhere warm someday.",
                            "Two weeks off work sounds like a dream.",
                            "My passport expires next year, I should renew it.")),
            new Event("writing", "genre=a mystery novel|a children's book|a memoir|a fantasy series",
                    s("I've been writing {genre} in the evenings, I'm at chapter nine."),
                    s("That's so cool, can I read it when it's done?"),
                    qs(q(WHAT, INFL, "What did {X} write?", "{genre}"),
                            q(WHAT, SYN, "What kind of book is {X} working on?", "{genre}"),
                            q(WHAT, SAME, "What is {X} writing in the evenings?", "{genre}")),
                    s("I read a mystery novel on the train, I couldn't put it down.",
                            "Evenings are the only time I get to myself.",
                            "Chapter nine of that series on TV was the best one.")),
            new Event("garden", "veg=tomatoes|zucchini|peppers|strawberries|beans",
                    s("My little vegetable garden is exploding, I've picked way too many {veg} this week."),
                    s("Bring some over, I'll make a salad!"),
                    qs(q(WHAT, SAME, "What has {X} picked from the garden?", "{veg}"),
                            q(WHAT, SYN, "What produce is {X} harvesting?", "{veg}"),
                            q(WHAT, INFL, "What does {X} pick from the vegetable patch?", "{veg}")),
                    s("The supermarket tomatoes taste like water.",
                            "My neighbour's garden is nothing but weeds.",
                            "This week has been way too long.")),
            new Event("award", "prize=employee of the year|a regional photography award|a teaching prize",
                    s("I won {prize}! My boss announced it at the meeting."),
                    s("You deserve it so much, congrats!"),
                    qs(q(WHAT, SAME, "What did {X} win?", "{prize}"),
                            q(WHAT, SYN, "What honour was {X} given?", "{prize}"),
                            q(WHO, PARA, "Who told everyone about {X}'s award?", "{X}'s boss")),
                    s("Our team meeting ran two hours over.",
                            "My boss is on holiday, so the office is quiet.")),
            new Event("concert", "band=an indie folk band|a jazz trio|the symphony orchestra|a punk band from the "
                    + "nineties;companion=my dad|my roommate|my coworker Elif|my neighbour",
                    s("Went to see {band} live on Friday with {companion}, what a night."),
                    s("Fun! Was it loud?"),
                    qs(q(WHO, SAME, "Who did {X} see {band} live with?", "{companion}"),
                            q(WHAT, SYN, "What kind of music performance did {X} attend?", "{band}"),
                            q(WHEN, PARA, "When did {X} go to a gig?", "the Friday before {date}"),
                            q(WHO, PARA, "Who went to the concert with {X}?", "{companion}")),
                    s("My dad only listens to the radio these days.",
                            "Friday nights I'm usually too tired to go out.",
                            "Tickets for live shows are ridiculous now.")),
            new Event("volunteer", "place=the food bank|an animal shelter|the community library|a youth football "
                    + "club",
                    s("I volunteer at {place} every other Sunday now."),
                    s("That's lovely of you."),
                    qs(q(WHERE, INFL, "Where has {X} been volunteering?", "{place}"),
                            q(WHAT, SYN, "What charity work does {X} do?", "helps at {place}"),
                            q(WHEN, SAME, "When does {X} volunteer?", "every other Sunday")),
                    s("Sundays are for sleeping in, as far as I'm concerned.",
                            "Our church keeps asking for volunteers but I never have time.")),
            new Event("hospital", "relative=grandmother|uncle|dad|mother;cond=hip surgery|pneumonia|a heart procedure",
                    s("My {relative} is in the hospital for {cond}, we're all a bit worried.",
                            "Good news, my {relative} came home from the hospital yesterday and is doing much better."),
                    s("I'm sending good thoughts, keep me posted.", "Such a relief! Give them a hug from me."),
                    qs(q(WHAT, SAME, "Why was {X}'s {relative} in the hospital?", "{cond}"),
                            q(WHEN, SYN, "When was {X}'s {relative} discharged?", "the day before the later talk", 1),
                            q(MULTI, TWO, "How is {X}'s relative doing after the {cond}?", "home and much better",
                                    0, 1)),
                    s("The hospital parking costs a fortune.",
                            "I've been worried about work deadlines all week.")),
            new Event("language", "lang=Japanese|Portuguese|Korean|Greek|Turkish;via=an app|night classes|a tutor "
                    + "online",
                    s("I'm learning {lang} with {via}, fifteen minutes a day."),
                    s("Say something for me in it!"),
                    qs(q(WHAT, SAME, "Which language is {X} learning?", "{lang}"),
                            q(WHAT, SYN, "What foreign tongue is {X} studying?", "{lang}"),
                            q(WHAT, INFL, "How does {X} learn {lang}?", "with {via}")),
                    s("My phone is full of apps I never use.",
                            "Fifteen minutes a day of stretching fixed my back.")),
            new Event("paint", "room=kitchen|bathroom|bedroom|living room;color=sage green|navy|terracotta|pale yellow",
                    s("We repainted the {room} {color} over the weekend, it looks brand new."),
                    s("Ooh, bold choice! I love it."),
                    qs(q(WHAT, PARA, "What colour is {X}'s {room} now?", "{color}"),
                            q(WHAT, INFL, "Which room did {X} repaint?", "the {room}"),
                            q(WHAT, SYN, "Which part of the home did {X} redecorate?", "the {room}")),
                    s("The paint shop was out of everything I wanted.",
                            "My kitchen tap is leaking again.")),
            new Event("birthday", "child=daughter|son;age=five|seven|ten;theme=dinosaur|pirate|space|unicorn",
                    s("My {child} turned {age} yesterday, we threw a {theme} party in the backyard."),
                    s("Happy birthday to the little one!"),
                    qs(q(WHAT, SAME, "What theme was the party for {X}'s {child}?", "{theme}"),
                            q(WHAT, SYN, "How old is {X}'s kid now?", "{age}"),
                            q(WHEN, PARA, "When is {X}'s {child}'s birthday?", "the day before {date}")),
                    s("Birthday parties for kids are pure chaos.",
                            "We saw a dinosaur exhibit at the museum once, it was huge.")),
            new Event("degree", "subject=nursing|accounting|architecture|marine biology",
                    s("I passed my final exams, so I'm officially done with my {subject} degree!"),
                    s("Doctor... well, graduate {X}! So proud of you."),
                    qs(q(WHAT, SAME, "What degree did {X} finish?", "{subject}"),
                            q(WHAT, SYN, "What did {X} graduate in?", "{subject}"),
                            q(WHEN, PARA, "When did {X} complete university?", "shortly before {date}")),
                    s("Exam season makes the library impossible.",
                            "I failed my driving test twice before passing.")),
            new Event("coffee", "weeks=two|three|five",
                    s("I quit coffee {weeks} weeks ago. The headaches were rough at first."),
                    s("Respect. I could never."),
                    qs(q(WHAT, PARA, "What drink did {X} give up?", "coffee"),
                            q(WHAT, SYN, "What has {X} stopped drinking?", "coffee"),
                            q(WHAT, SAME, "Why did {X} have headaches after quitting coffee?", "caffeine withdrawal")),
                    s("This coffee shop has the best pastries in town.",
                            "Headaches have been going around at the office.")),
            new Event("tattoo", "design=a small fox|a compass|a wave|my grandmother's handwriting;spot=on my forearm|"
                    + "on my ankle|behind my ear",
                    s("I got my first tattoo! It's {design} {spot}."),
                    s("Did it hurt? Show me!"),
                    qs(q(WHAT, SAME, "What tattoo did {X} get?", "{design}"),
                            q(WHERE, PARA, "Where on the body is {X}'s tattoo?", "{spot}"),
                            q(WHAT, SYN, "What body art did {X} have done?", "{design}")),
                    s("My cousin has tattoos all over his arms.",
                            "I saw a fox in the park this morning.")),
            new Event("hike", "comp=my cousin Mara|my old teacher|my brother-in-law|two friends from work;"
                    + "peak=the ridge above the lake|the old mining trail|a peak called Grey Crag",
                    s("Went hiking with {comp} on Saturday, we made it all the way up {peak}."),
                    s("Your knees must hate you today."),
                    qs(q(WHO, SAME, "Who did {X} go hiking with?", "{comp}"),
                            q(WHERE, INFL, "Where did {X} hike?", "{peak}"),
                            q(WHO, SYN, "Who accompanied {X} on the trek?", "{comp}")),
                    s("My hiking boots are falling apart.",
                            "On Saturday I mostly slept.")),
            new Event("wallet", "vehicle=tram|bus|train",
                    s("I lost my wallet on the {vehicle} on Tuesday, with all my cards in it.",
                            "Someone handed my wallet in at the lost and found, nothing was missing!"),
                    s("Oh no, did you cancel the cards?", "There are good people left in the world!"),
                    qs(q(WHERE, SAME, "Where did {X} lose the wallet?", "on the {vehicle}"),
                            q(MULTI, TWO, "What happened to the wallet {X} lost on the {vehicle}?", "it was handed "
                                    + "in, nothing missing", 0, 1),
                            q(WHERE, SYN, "Where did {X} misplace the billfold?", "on the {vehicle}")),
                    s("The {vehicle} was packed this morning.",
                            "I need a new wallet, mine is falling apart.")),
            new Event("restaurant", "cuisine=Ethiopian|Georgian|Peruvian|Sri Lankan;street=Elm Street|the market "
                    + "square|Canal Road",
                    s("We tried the new {cuisine} place on {street} for our anniversary."),
                    s("How was it? I've been curious about that one."),
                    qs(q(WHAT, SYN, "What type of food did {X} eat to celebrate the anniversary?", "{cuisine}"),
                            q(WHERE, SAME, "Where is the {cuisine} place {X} tried?", "on {street}"),
                            q(WHAT, PARA, "How did {X} mark the anniversary?", "dinner at a {cuisine} restaurant")),
                    s("We always end up at the same pizza place, we should try more restaurants.",
                            "The market square is under construction again.")),
            new Event("diet", "diet=vegetarian|vegan|gluten-free;month=March|April|January",
                    s("I've gone fully {diet} since {month}, I feel great."),
                    s("Any good recipes to share?"),
                    qs(q(WHAT, PARA, "What diet does {X} follow?", "{diet}"),
                            q(WHAT, SYN, "What eating habits did {X} adopt?", "{diet}"),
                            q(WHEN, SAME, "Since when has {X} been {diet}?", "{month}")),
                    s("{month} was such a rainy month.",
                            "My sister tried a juice cleanse and hated every minute.")),
            new Event("gallery", "count=Two|Three|Five;gallery=a gallery downtown|the town hall|a cafe by the station",
                    s("{count} of my photographs are going to be shown at {gallery} next month."),
                    s("An exhibition! That's a big deal."),
                    qs(q(WHERE, SYN, "Where will {X}'s pictures be exhibited?", "{gallery}"),
                            q(WHAT, INFL, "What is {X} showing next month?", "photographs"),
                            q(WHAT, SAME, "How many of {X}'s photographs are going to be shown?", "{count}")),
                    s("I took a terrible photo of myself for my passport.",
                            "Next month is already fully booked for me.")),
            new Event("swim", "water=the lake|the bay|the reservoir;km=two|three|one and a half",
                    s("I swam across {water} at the summer camp reunion, about {km} kilometres."),
                    s("You're part fish, I swear."),
                    qs(q(WHERE, INFL, "Where did {X} go swimming?", "across {water}"),
                            q(WHAT, INFL, "How far did {X} swim?", "about {km} kilometres"),
                            q(WHAT, PARA, "What did {X} do at the camp reunion?", "swam across {water}")),
                    s("The pool at my gym is closed for repairs.",
                            "Summer camp food was the worst part of my childhood.")),
            new Event("engaged", "partner=Theo|Amara|Felix|Noor|Jules|Anika;month=June|September|October|May",
                    s("{partner} proposed last night! We're engaged!",
                            "We set the date, the wedding will be in {month} next year."),
                    s("AAAH! Congratulations to you both!", "Put me down for the dance floor."),
                    qs(q(WHO, SAME, "Who proposed to {X}?", "{partner}"),
                            q(MULTI, TWO, "When will {X} marry {partner}?", "in {month} next year", 0, 1),
                            q(WHEN, SYN, "When did {X} get engaged?", "the night before {date}")),
                    s("Engagement rings cost as much as a car now.",
                            "Last night I stayed in and watched old films.")));

    /** Greetings: an opener and its answer. */
    static final String[][] HELLOS = {
            {"Hey {Y}! How's your week been?", "Hi {X}! Busy but good, you?"},
            {"Morning! Got a minute to chat?", "Always, what's new?"},
            {"Long time no talk! How are you?", "I know, it's been ages. I'm alright!"},
            {"Hi! Just finished work, finally.", "Perfect timing, I was about to message you."},
            {"Hello hello, how was the weekend?", "Too short, as always. Yours?"},
            {"Hey, you there?", "Yep, just making some tea."},
            {"Good evening! Are you surviving?", "Barely, haha. What's up?"},
    };

    /** Small talk: a line and its answer, facts of no question. */
    static final String[][] SMALL_TALK = {
            {"The weather has been so strange lately.", "Right? Sun in the morning, hail by lunch."},
            {"Did you watch the match last night?", "Only the second half, I fell asleep."},
            {"I finally cleaned out the fridge.", "Brave. Mine is a science experiment."},
            {"I've been sleeping badly this week.", "Same, it's the heat I think."},
            {"Work has been nonstop.", "Hang in there, the weekend is close."},
            {"I need a new show to watch.", "Try that detective series everyone talks about."},
            {"My phone battery dies by noon now.", "Time for an upgrade, maybe?"},
            {"I made soup for the whole week.", "Meal prep champion!"},
            {"The neighbours are renovating again, so much drilling.", "Noise-cancelling headphones, trust me."},
            {"I keep forgetting to water the plants.", "Set an alarm, that's what I do."},
            {"Traffic this morning was terrible.", "I walked, for once, and it was lovely."},
            {"I started a new puzzle, a thousand pieces.", "Send a picture when you're done!"},
            {"I'm thinking of cutting my hair short.", "Do it, you only live once."},
            {"We had a power cut for three hours.", "Candlelight dinner, at least?"},
            {"I found an old photo album at my parents' place.", "Those are the best, so many memories."},
            {"I'm so tired of rain.", "Spring can't come soon enough."},
            {"The new season of that cooking show is out.", "Oh, I have to catch up on it."},
            {"My back hurts from sitting all day.", "Stretch breaks! Every hour."},
            {"I tried a new podcast about history.", "Any good? I need something for my commute."},
            {"The cat next door keeps visiting me.", "It has adopted you, clearly."},
            {"I have way too many tabs open, as usual.", "Classic you."},
            {"Groceries are so pricey lately.", "Tell me about it, I spent a fortune on cheese."},
            {"I finally fixed the squeaky door.", "The small victories!"},
            {"I'm trying to read more before bed.", "Me too, instead of scrolling."},
    };

    /** What one says back to a distractor line. */
    static final String[] NODS = {"Ha, tell me about it.", "Yeah, I know what you mean.", "Oh really?",
            "That's life, I guess.", "Ugh, I feel that.", "Interesting!", "Fair enough.", "Typical!"};

    /** Goodbyes. */
    static final String[][] BYES = {
            {"Anyway, I should go cook dinner. Talk soon!", "Bye! Take care."},
            {"I have to run, let's catch up later.", "Sure thing, have a good one!"},
            {"Okay, bedtime for me. Night!", "Good night!"},
            {"Great talking to you, as always.", "Likewise, speak soon."},
            {"Let's talk again next week?", "Definitely, see you!"},
    };

    static final String[] NAMES = {"Alice", "Bram", "Chiara", "Dmitri", "Esme", "Farid", "Greta", "Hugo", "Ilse",
            "Jorge", "Keiko", "Lars", "Maya", "Nils", "Olga", "Pavel", "Quinn", "Rania", "Stefan", "Tara", "Umar",
            "Vera", "Wes", "Xenia", "Yusuf", "Zoe", "Anton", "Bea", "Cyrus", "Daria", "Emil", "Fiona", "Gideon",
            "Hana", "Ivo", "Jade", "Kofi", "Lucia", "Milo", "Nadia", "Oskar", "Petra", "Rafael", "Sanne", "Timo",
            "Una", "Viktor", "Wanda"};

    /** One turn as written: who says it and what. */
    record Line(String speaker, String text) {
    }

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args.length > 0 ? args[0] : "target/quality/recallset.json");
        Map<String, String> o = new LinkedHashMap<>();
        for (int i = 1; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            o.put(kv[0], kv[1]);
        }
        int conversations = Integer.parseInt(o.getOrDefault("conversations", "24"));
        Random random = new Random(Long.parseLong(o.getOrDefault("seed", "20240611")));
        StringBuilder json = new StringBuilder("[\n");
        int turns = 0;
        int questions = 0;
        for (int c = 0; c < conversations; c++) {
            int[] counts = new int[2];
            json.append(c == 0 ? "" : ",\n").append(conversation(c, random, counts));
            turns += counts[0];
            questions += counts[1];
        }
        json.append("\n]\n");
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, json, StandardCharsets.UTF_8);
        System.err.printf(Locale.ROOT, "RecallSet: %d conversations, %d turns, %d questions -> %s%n", conversations,
                turns, questions, out);
    }

    /** One conversation as LoCoMo's JSON; {@code counts} gets its turns and questions. */
    static String conversation(int index, Random random, int[] counts) {
        List<String> names = new ArrayList<>(List.of(NAMES));
        Collections.shuffle(names, random);
        String[] who = {names.get(0), names.get(1)};
        int sessions = 14 + random.nextInt(5);
        LocalDateTime[] dates = new LocalDateTime[sessions];
        LocalDateTime at = LocalDateTime.of(2022 + random.nextInt(2), 1 + random.nextInt(12), 1 + random.nextInt(28),
                8 + random.nextInt(13), random.nextInt(60));
        for (int s = 0; s < sessions; s++) {
            dates[s] = at;
            at = at.plusDays(2 + random.nextInt(19)).withHour(8 + random.nextInt(13)).withMinute(random.nextInt(60));
        }
        // What each session says besides greetings and goodbyes, as pairs of lines.
        List<List<Line[]>> middle = new ArrayList<>();
        for (int s = 0; s < sessions; s++) {
            middle.add(new ArrayList<>());
        }
        List<Event> events = new ArrayList<>(EVENTS);
        Collections.shuffle(events, random);
        int eventCount = 14;
        // The questions as (event, chosen slots, speaker, sessions and places of its statements): resolved to dia_ids
        // once the sessions are laid out.
        record Placed(Event event, Map<String, String> slots, int speaker, int[] sessions, Line[] statements) {
        }
        List<Placed> placed = new ArrayList<>();
        for (int e = 0; e < eventCount; e++) {
            Event ev = events.get(e);
            int speaker = e % 2;
            Map<String, String> slots = choose(ev.slots(), random);
            slots.put("X", who[speaker]);
            slots.put("Y", who[1 - speaker]);
            int n = ev.statements().length;
            int[] where = new int[n];
            where[0] = random.nextInt(n == 1 ? sessions : sessions - 3);
            if (n > 1) {
                where[1] = where[0] + 1 + random.nextInt(Math.min(4, sessions - 1 - where[0]));
            }
            Line[] said = new Line[n];
            for (int k = 0; k < n; k++) {
                said[k] = new Line(who[speaker], fill(ev.statements()[k], slots));
                Line reply = new Line(who[1 - speaker], fill(ev.replies()[k], slots));
                middle.get(where[k]).add(new Line[] {said[k], reply});
            }
            for (String d : ev.distractors()) {
                int s;
                do {
                    s = random.nextInt(sessions);
                } while (contains(where, s));
                int by = random.nextInt(2);
                middle.get(s).add(new Line[] {new Line(who[by], fill(d, slots)),
                        new Line(who[1 - by], NODS[random.nextInt(NODS.length)])});
            }
            placed.add(new Placed(ev, slots, speaker, where, said));
        }
        // Small talk until every session has at least five pairs in the middle; then the order within each session.
        for (int s = 0; s < sessions; s++) {
            List<Line[]> m = middle.get(s);
            while (m.size() < 5 || random.nextInt(3) == 0 && m.size() < 8) {
                String[] pair = SMALL_TALK[random.nextInt(SMALL_TALK.length)];
                int by = random.nextInt(2);
                m.add(new Line[] {new Line(who[by], pair[0]), new Line(who[1 - by], pair[1])});
            }
            Collections.shuffle(m, random);
        }
        // Lay the sessions out and learn each statement's dia_id.
        Map<Line, String> ids = new java.util.IdentityHashMap<>();
        StringBuilder conv = new StringBuilder();
        conv.append("\"speaker_a\": ").append(str(who[0])).append(", \"speaker_b\": ").append(str(who[1]));
        int turnCount = 0;
        for (int s = 0; s < sessions; s++) {
            List<Line> lines = new ArrayList<>();
            int opener = random.nextInt(2);
            String[] hello = HELLOS[random.nextInt(HELLOS.length)];
            Map<String, String> names2 = Map.of("X", who[opener], "Y", who[1 - opener]);
            lines.add(new Line(who[opener], fill(hello[0], names2)));
            lines.add(new Line(who[1 - opener], fill(hello[1], names2)));
            for (Line[] pair : middle.get(s)) {
                lines.addAll(List.of(pair));
            }
            String[] bye = BYES[random.nextInt(BYES.length)];
            int closer = random.nextInt(2);
            lines.add(new Line(who[closer], fill(bye[0], names2)));
            lines.add(new Line(who[1 - closer], fill(bye[1], names2)));
            conv.append(",\n  \"session_").append(s + 1).append("_date_time\": ").append(str(locomoDate(dates[s])));
            conv.append(",\n  \"session_").append(s + 1).append("\": [");
            for (int t = 0; t < lines.size(); t++) {
                String id = "D" + (s + 1) + ":" + (t + 1);
                ids.put(lines.get(t), id);
                conv.append(t == 0 ? "\n    " : ",\n    ").append("{\"speaker\": ").append(str(lines.get(t).speaker()))
                        .append(", \"dia_id\": ").append(str(id)).append(", \"text\": ")
                        .append(str(lines.get(t).text())).append('}');
            }
            conv.append("\n  ]");
            turnCount += lines.size();
        }
        // Two questions of each event, in different wordings; a two-turn question always among them.
        StringBuilder qa = new StringBuilder();
        int questionCount = 0;
        for (Placed p : placed) {
            List<Q> pool = new ArrayList<>(List.of(p.event().questions()));
            Collections.shuffle(pool, random);
            pool.sort((a, b) -> Boolean.compare(b.wording().equals(TWO), a.wording().equals(TWO)));
            Map<String, String> slots = new LinkedHashMap<>(p.slots());
            slots.put("date", humanDate(dates[p.sessions()[0]]));
            for (Q question : pool.subList(0, 2)) {
                StringBuilder evidence = new StringBuilder();
                for (int k : question.evidence()) {
                    evidence.append(evidence.isEmpty() ? "" : ", ").append(str(ids.get(p.statements()[k])));
                }
                int category = question.kind().equals(MULTI) ? 1 : question.kind().equals(WHEN) ? 2 : 4;
                qa.append(questionCount == 0 ? "\n    " : ",\n    ").append("{\"question\": ")
                        .append(str(fill(question.text(), slots))).append(", \"answer\": ")
                        .append(str(fill(question.answer(), slots))).append(", \"evidence\": [").append(evidence)
                        .append("], \"category\": ").append(category).append(", \"kind\": ")
                        .append(str(question.kind())).append(", \"wording\": ").append(str(question.wording()))
                        .append('}');
                questionCount++;
            }
        }
        counts[0] = turnCount;
        counts[1] = questionCount;
        return "{\"sample_id\": " + str("own-" + index) + ",\n \"qa\": [" + qa + "\n ],\n \"conversation\": {" + conv
                + "\n }}";
    }

    /** One option of each slot ("a=x|y;b=z"). */
    static Map<String, String> choose(String slots, Random random) {
        Map<String, String> chosen = new LinkedHashMap<>();
        for (String slot : slots.split(";")) {
            String[] kv = slot.split("=", 2);
            String[] options = kv[1].split("\\|");
            chosen.put(kv[0], options[random.nextInt(options.length)]);
        }
        return chosen;
    }

    static String fill(String template, Map<String, String> slots) {
        String s = template;
        for (var e : slots.entrySet()) {
            s = s.replace("{" + e.getKey() + "}", e.getValue());
        }
        if (s.contains("{")) {
            throw new IllegalStateException("unfilled slot in: " + s);
        }
        return s;
    }

    static boolean contains(int[] values, int v) {
        for (int x : values) {
            if (x == v) {
                return true;
            }
        }
        return false;
    }

    /** As LoCoMo writes a session's time: "1:56 pm on 8 May, 2023". */
    static String locomoDate(LocalDateTime t) {
        return t.format(DateTimeFormatter.ofPattern("h:mm a 'on' d MMMM, yyyy", Locale.ENGLISH))
                .replace("AM", "am").replace("PM", "pm");
    }

    static String humanDate(LocalDateTime t) {
        return t.format(DateTimeFormatter.ofPattern("d MMMM yyyy", Locale.ENGLISH));
    }

    static String str(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                default -> {
                    if (ch < 0x20) {
                        b.append(String.format("\\u%04x", (int) ch));
                    } else {
                        b.append(ch);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
