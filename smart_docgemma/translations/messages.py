"""Translations of the sentences the code writes (``languages.message`` and ``web/sentences.py``):
safety flags, chart answers, card values, the second look, edit errors and source failures.
msgid → (fr, pt, es, sw); ``strings.py`` writes them into the catalogs with the page's strings.
The French, Portuguese and Spanish are reviewed; the Swahili is a first translation, not yet
reviewed by a Swahili-speaking clinician (docs/languages.md).
"""
from __future__ import annotations

F: dict[str, tuple[str, str, str, str]] = {
    # a question refused while the session's previous turn runs, or a cancel after it ended
    # (turns/store.py, web/chat.py: HTTP 409)
    "The assistant is still answering your previous question. Wait for it to finish, then ask "
    "again.": (
        "L'assistant répond encore à votre question précédente. Attendez la fin de sa réponse, "
        "puis posez la question à nouveau.",
        "O assistente ainda está respondendo à sua pergunta anterior. Aguarde o fim da resposta "
        "e pergunte de novo.",
        "El asistente todavía está respondiendo a su pregunta anterior. Espere a que termine y "
        "vuelva a preguntar.",
        "Msaidizi bado anajibu swali lako la awali. Subiri amalize, kisha uulize tena.",
    ),
    "The assistant's previous answer has stopped reporting (its server process may have been "
    "restarted). You can ask again in %(wait)s s.": (
        "La réponse précédente de l'assistant ne donne plus de nouvelles (son processus serveur a "
        "peut-être redémarré). Vous pourrez reposer la question dans %(wait)s s.",
        "A resposta anterior do assistente parou de se comunicar (o processo do servidor pode ter "
        "sido reiniciado). Você poderá perguntar de novo em %(wait)s s.",
        "La respuesta anterior del asistente dejó de informar (su proceso de servidor puede "
        "haberse reiniciado). Podrá volver a preguntar en %(wait)s s.",
        "Jibu la awali la msaidizi limeacha kuripoti (huenda mchakato wake wa seva umeanzishwa "
        "upya). Unaweza kuuliza tena baada ya sekunde %(wait)s.",
    ),
    "This answer has already finished; there is nothing to cancel.": (
        "Cette réponse est déjà terminée ; il n'y a rien à annuler.",
        "Esta resposta já terminou; não há nada para cancelar.",
        "Esta respuesta ya terminó; no hay nada que cancelar.",
        "Jibu hili limeshakamilika; hakuna cha kusitisha.",
    ),
    # the reading's leftovers: an interaction at the thesaurus' lowest grade (checks/rules.py),
    # a number of results asked (tools/chart/labanswers.py), a loading dose and a word in a drug's
    # place no vocabulary knows (agent/nodes.py)
    "Note %(drug)s with %(others)s (graded 'take into account')": (
        "À noter : %(drug)s avec %(others)s (niveau « à prendre en compte »)",
        "Atenção: %(drug)s com %(others)s (nível « a ter em conta »)",
        "Nota: %(drug)s con %(others)s (nivel «a tener en cuenta»)",
        "Kumbuka: %(drug)s pamoja na %(others)s (kiwango « cha kuzingatia »)",
    ),
    # a result's window that is a calendar year ("how many HbA1c in 2025?", tools/words/windows.py)
    "in %(year)s": ("en %(year)s", "em %(year)s", "en %(year)s", "mwaka %(year)s"),
    # a child's weight asked, older than a weight-based dose allows (tools/chart/answers.py)
    "A child's weight-based dose needs a weight at most %(days)s days old: this one is %(old)s "
    "days old.": (
        "Une dose pédiatrique au poids demande un poids de %(days)s jours au plus : celui-ci date "
        "de %(old)s jours.",
        "Uma dose pediátrica por peso exige um peso de no máximo %(days)s dias: este tem %(old)s "
        "dias.",
        "Una dosis pediátrica por peso exige un peso de %(days)s días como máximo: este tiene "
        "%(old)s días.",
        "Dozi ya mtoto kwa uzito inahitaji uzito usiozidi siku %(days)s: huu una siku %(old)s.",
    ),
    "%(asked)s asked: only %(n)s on file.": (
        "%(asked)s demandés : seulement %(n)s au dossier.",
        "%(asked)s pedidos: apenas %(n)s no prontuário.",
        "%(asked)s pedidos: solo %(n)s en la historia.",
        "%(asked)s zimeombwa: %(n)s tu ziko kwenye rekodi.",
    ),
    "The loading dose (%(loading)s) is not on this card: it carries the maintenance dose only; "
    "order the loading dose as its own single dose.": (
        "La dose de charge (%(loading)s) ne figure pas sur cette carte : elle ne porte que la dose "
        "d'entretien ; prescrivez la dose de charge comme une dose unique à part.",
        "A dose de ataque (%(loading)s) não está neste cartão: ele traz só a dose de manutenção; "
        "prescreva a dose de ataque como dose única à parte.",
        "La dosis de carga (%(loading)s) no está en esta tarjeta: solo lleva la dosis de "
        "mantenimiento; prescriba la dosis de carga como dosis única aparte.",
        "Dozi ya kuanzia (%(loading)s) haiko kwenye kadi hii: ina dozi ya kuendelea tu; agiza "
        "dozi ya kuanzia kama dozi moja peke yake.",
    ),
    "Already on the patient's list: %(orders)s.": (
        "Déjà dans la liste du patient : %(orders)s.",
        "Já na lista do paciente: %(orders)s.",
        "Ya en la lista del paciente: %(orders)s.",
        "Tayari kwenye orodha ya mgonjwa: %(orders)s.",
    ),
    "Drug not recognised: %(word)s. Nothing was checked or ordered for it; check the spelling or "
    "give the generic name.": (
        "Médicament non reconnu : %(word)s. Rien n'a été vérifié ni prescrit pour lui ; vérifiez "
        "l'orthographe ou donnez le nom générique.",
        "Medicamento não reconhecido: %(word)s. Nada foi verificado nem prescrito para ele; "
        "confira a grafia ou informe o nome genérico.",
        "Medicamento no reconocido: %(word)s. No se verificó ni se prescribió nada para él; "
        "revise la ortografía o indique el nombre genérico.",
        "Dawa haitambuliki: %(word)s. Hakuna kilichokaguliwa wala kuagizwa kwa ajili yake; kagua "
        "tahajia au toa jina la jumla.",
    ),
    # safety flags on the card (checks/rules.py, checks/patient_rules.py, checks/drug_safety.py,
    # tools/writes/orders.py)
    "Avoid %(drug)s with %(others)s": (
        "Éviter %(drug)s avec %(others)s",
        "Evitar %(drug)s com %(others)s",
        "Evitar %(drug)s con %(others)s",
        "Epuka %(drug)s pamoja na %(others)s",
    ),
    "Monitor closely if giving %(drug)s with %(others)s": (
        "Surveiller étroitement si %(drug)s est donné avec %(others)s",
        "Monitorar de perto se %(drug)s for dado com %(others)s",
        "Vigilar de cerca si se da %(drug)s con %(others)s",
        "Fuatilia kwa karibu ukitoa %(drug)s pamoja na %(others)s",
    ),
    "Avoid %(drug)s at this kidney function (%(renal)s)": (
        "Éviter %(drug)s avec cette fonction rénale (%(renal)s)",
        "Evitar %(drug)s com esta função renal (%(renal)s)",
        "Evitar %(drug)s con esta función renal (%(renal)s)",
        "Epuka %(drug)s kwa utendaji huu wa figo (%(renal)s)",
    ),
    "Not covered: the breastfeeding table has no entry for %(drugs)s, so nothing is claimed "
    "about it while breastfeeding.": (
        "Non couvert : la table allaitement n'a pas d'entrée pour %(drugs)s, donc rien n'est "
        "affirmé à son sujet pendant l'allaitement.",
        "Não coberto: a tabela de amamentação não tem entrada para %(drugs)s, então nada é "
        "afirmado sobre isso durante a amamentação.",
        "No cubierto: la tabla de lactancia no tiene entrada para %(drugs)s, así que no se afirma "
        "nada sobre ello durante la lactancia.",
        "Haijashughulikiwa: jedwali la kunyonyesha halina kipengele cha %(drugs)s, kwa hiyo "
        "hakuna kinachodaiwa kuhusu hilo wakati wa kunyonyesha.",
    ),
    "Not covered: the pregnancy table has no entry for %(drugs)s, so nothing is claimed about "
    "it in pregnancy.": (
        "Non couvert : la table grossesse n'a pas d'entrée pour %(drugs)s, donc rien n'est "
        "affirmé à son sujet pendant la grossesse.",
        "Não coberto: a tabela de gravidez não tem entrada para %(drugs)s, então nada é afirmado "
        "sobre isso na gravidez.",
        "No cubierto: la tabla de embarazo no tiene entrada para %(drugs)s, así que no se afirma "
        "nada sobre ello en el embarazo.",
        "Haijashughulikiwa: jedwali la ujauzito halina kipengele cha %(drugs)s, kwa hiyo hakuna "
        "kinachodaiwa kuhusu hilo wakati wa ujauzito.",
    ),
    "Review %(drug)s in pregnancy: %(risk)s": (
        "Réévaluer %(drug)s pendant la grossesse : %(risk)s",
        "Rever %(drug)s na gravidez: %(risk)s",
        "Revisar %(drug)s en el embarazo: %(risk)s",
        "Kagua %(drug)s wakati wa ujauzito: %(risk)s",
    ),
    "Which tests should be sent (%(when)s)? Name them (for example FBC, U&E, CRP) and I will "
    "draft the lab orders; nothing was ordered.": (
        "Quels examens faut-il envoyer (%(when)s) ? Nommez-les (par exemple NFS, ionogramme, CRP) "
        "et je préparerai les demandes ; rien n'a été demandé.",
        "Quais exames devem ser enviados (%(when)s)? Diga quais (por exemplo hemograma, ureia e "
        "eletrólitos, PCR) e eu preparo os pedidos; nada foi pedido.",
        "¿Qué análisis hay que enviar (%(when)s)? Indíquelos (por ejemplo hemograma, iones, PCR) y "
        "prepararé las solicitudes; no se ha pedido nada.",
        "Vipimo gani vitumwe (%(when)s)? Vitaje (kwa mfano FBC, U&E, CRP) nami nitaandaa maombi ya "
        "maabara; hakuna kilichoagizwa.",
    ),
    "in %(month)s": ("en %(month)s", "em %(month)s", "en %(month)s", "mwezi wa %(month)s"),
    "Kidney dose of %(drug)s checked (%(renal)s): within the label's band, %(band)s": (
        "Dose de %(drug)s vérifiée pour la fonction rénale (%(renal)s) : dans la plage du RCP, "
        "%(band)s",
        "Dose de %(drug)s verificada para a função renal (%(renal)s): dentro da faixa da bula, "
        "%(band)s",
        "Dosis de %(drug)s verificada para la función renal (%(renal)s): dentro del rango de la "
        "ficha técnica, %(band)s",
        "Dozi ya %(drug)s imekaguliwa kwa utendaji wa figo (%(renal)s): ndani ya kiwango cha "
        "lebo, %(band)s",
    ),
    "Adjust the %(drug)s dose to kidney function (%(renal)s): label dose %(band)s": (
        "Adapter la dose de %(drug)s à la fonction rénale (%(renal)s) : dose du RCP %(band)s",
        "Ajustar a dose de %(drug)s à função renal (%(renal)s): dose da bula %(band)s",
        "Ajustar la dosis de %(drug)s a la función renal (%(renal)s): dosis de la ficha técnica "
        "%(band)s",
        "Rekebisha dozi ya %(drug)s kulingana na utendaji wa figo (%(renal)s): dozi ya lebo "
        "%(band)s",
    ),
    "Review %(drug)s at this kidney function (%(renal)s): %(risk)s": (
        "Réévaluer %(drug)s à cette fonction rénale (%(renal)s) : %(risk)s",
        "Rever %(drug)s com esta função renal (%(renal)s): %(risk)s",
        "Revisar %(drug)s con esta función renal (%(renal)s): %(risk)s",
        "Kagua %(drug)s kwa utendaji huu wa figo (%(renal)s): %(risk)s",
    ),
    "Adjust the %(drug)s dose to kidney function (%(renal)s)": (
        "Adapter la dose de %(drug)s à la fonction rénale (%(renal)s)",
        "Ajustar a dose de %(drug)s à função renal (%(renal)s)",
        "Ajustar la dosis de %(drug)s a la función renal (%(renal)s)",
        "Rekebisha dozi ya %(drug)s kulingana na utendaji wa figo (%(renal)s)",
    ),
    "Avoid %(drug)s at this patient's age (%(age)s years)": (
        "Éviter %(drug)s à l'âge de ce patient (%(age)s ans)",
        "Evitar %(drug)s na idade deste paciente (%(age)s anos)",
        "Evitar %(drug)s a la edad de este paciente (%(age)s años)",
        "Epuka %(drug)s kwa umri wa mgonjwa huyu (miaka %(age)s)",
    ),
    "Review %(drug)s at this patient's age (%(age)s years)": (
        "Réévaluer %(drug)s à l'âge de ce patient (%(age)s ans)",
        "Reavaliar %(drug)s na idade deste paciente (%(age)s anos)",
        "Revisar %(drug)s a la edad de este paciente (%(age)s años)",
        "Kagua %(drug)s kwa umri wa mgonjwa huyu (miaka %(age)s)",
    ),
    "Reduce the %(drug)s dose — it is above the daily maximum": (
        "Réduire la dose de %(drug)s — elle dépasse le maximum journalier",
        "Reduzir a dose de %(drug)s — está acima do máximo diário",
        "Reducir la dosis de %(drug)s — supera el máximo diario",
        "Punguza dozi ya %(drug)s — imezidi kiwango cha juu cha siku",
    ),
    "Review the %(drug)s dose — it is above the usual daily maximum": (
        "Réévaluer la dose de %(drug)s — elle dépasse le maximum journalier habituel",
        "Reavaliar a dose de %(drug)s — está acima do máximo diário habitual",
        "Revisar la dosis de %(drug)s — supera el máximo diario habitual",
        "Kagua dozi ya %(drug)s — imezidi kiwango cha kawaida cha siku",
    ),
    "Reduce the %(drug)s dose — it is above the weekly maximum": (
        "Réduire la dose de %(drug)s — elle dépasse le maximum hebdomadaire",
        "Reduzir a dose de %(drug)s — está acima do máximo semanal",
        "Reducir la dosis de %(drug)s — supera el máximo semanal",
        "Punguza dozi ya %(drug)s — imezidi kiwango cha juu cha wiki",
    ),
    "Review the %(drug)s dose — it is above the usual weekly maximum": (
        "Réévaluer la dose de %(drug)s — elle dépasse le maximum hebdomadaire habituel",
        "Reavaliar a dose de %(drug)s — está acima do máximo semanal habitual",
        "Revisar la dosis de %(drug)s — supera el máximo semanal habitual",
        "Kagua dozi ya %(drug)s — imezidi kiwango cha kawaida cha wiki",
    ),
    "Check the %(drug)s frequency — this drug is given once a week, not daily": (
        "Vérifier la fréquence de %(drug)s — ce médicament "
        "se donne une fois par semaine, pas chaque jour",
        "Verificar a frequência de %(drug)s — este medicamento "
        "é dado uma vez por semana, não diariamente",
        "Verificar la frecuencia de %(drug)s — este "
        "medicamento se da una vez por semana, no a diario",
        "Hakiki marudio ya %(drug)s — dawa hii hutolewa mara moja kwa wiki, si kila siku",
    ),
    "Review %(drug)s: a safety finding applies (%(topic)s)": (
        "Réévaluer %(drug)s : une alerte de sécurité s'applique (%(topic)s)",
        "Reavaliar %(drug)s: um alerta de segurança se aplica (%(topic)s)",
        "Revisar %(drug)s: se aplica una alerta de seguridad (%(topic)s)",
        "Kagua %(drug)s: tahadhari ya usalama inahusika (%(topic)s)",
    ),
    "Could not check %(label)s for interactions or allergies": (
        "Impossible de vérifier les interactions et allergies pour %(label)s",
        "Não foi possível verificar interações e alergias para %(label)s",
        "No se pudieron verificar interacciones y alergias para %(label)s",
        "Haikuwezekana kukagua mwingiliano na mzio kwa %(label)s",
    ),
    "Remove duplicate %(drug)s — already active": (
        "Supprimer le doublon %(drug)s — déjà en cours",
        "Remover a duplicidade de %(drug)s — já ativo",
        "Eliminar el duplicado de %(drug)s — ya activo",
        "Ondoa %(drug)s iliyorudiwa — tayari inatumika",
    ),
    "Remove duplicate %(drug)s — already in these orders": (
        "Supprimer le doublon %(drug)s — déjà dans ces prescriptions",
        "Remover a duplicidade de %(drug)s — já nestas prescrições",
        "Eliminar el duplicado de %(drug)s — ya en estas indicaciones",
        "Ondoa %(drug)s iliyorudiwa — tayari iko kwenye maagizo haya",
    ),
    "Avoid %(drug)s with %(other)s — two drugs of the same kind (%(two)s)": (
        "Éviter %(drug)s avec %(other)s — deux médicaments de même type (%(two)s)",
        "Evitar %(drug)s com %(other)s — dois medicamentos do mesmo tipo (%(two)s)",
        "Evitar %(drug)s con %(other)s — dos medicamentos del mismo tipo (%(two)s)",
        "Epuka %(drug)s pamoja na %(other)s — dawa mbili za aina moja (%(two)s)",
    ),
    "Check the boxed warning before ordering %(drug)s": (
        "Lire la mise en garde encadrée avant de prescrire %(drug)s",
        "Ler o alerta em destaque (boxed warning) antes de prescrever %(drug)s",
        "Leer la advertencia destacada (boxed warning) antes de indicar %(drug)s",
        "Soma onyo maalum (boxed warning) kabla ya kuagiza %(drug)s",
    ),
    "Review active %(drug)s — %(substance)s allergy (%(reaction)s)": (
        "Réévaluer %(drug)s en cours — allergie à %(substance)s (%(reaction)s)",
        "Reavaliar %(drug)s em uso — alergia a %(substance)s (%(reaction)s)",
        "Revisar %(drug)s activo — alergia a %(substance)s (%(reaction)s)",
        "Kagua %(drug)s inayotumika — mzio wa %(substance)s (%(reaction)s)",
    ),
    "Do not give %(drug)s — %(substance)s allergy (%(reaction)s)": (
        "Ne pas donner %(drug)s — allergie à %(substance)s (%(reaction)s)",
        "Não administrar %(drug)s — alergia a %(substance)s (%(reaction)s)",
        "No administrar %(drug)s — alergia a %(substance)s (%(reaction)s)",
        "Usitoe %(drug)s — mzio wa %(substance)s (%(reaction)s)",
    ),
    "Caution with %(drug)s — %(substance)s allergy (%(reaction)s)": (
        "Prudence avec %(drug)s — allergie à %(substance)s (%(reaction)s)",
        "Cautela com %(drug)s — alergia a %(substance)s (%(reaction)s)",
        "Precaución con %(drug)s — alergia a %(substance)s (%(reaction)s)",
        "Tahadhari na %(drug)s — mzio wa %(substance)s (%(reaction)s)",
    ),
    "Avoid %(drug)s in pregnancy": (
        "Éviter %(drug)s pendant la grossesse",
        "Evitar %(drug)s na gravidez",
        "Evitar %(drug)s en el embarazo",
        "Epuka %(drug)s wakati wa ujauzito",
    ),
    "Stop %(drug)s in pregnancy": (
        "Arrêter %(drug)s pendant la grossesse",
        "Suspender %(drug)s na gravidez",
        "Suspender %(drug)s en el embarazo",
        "Acha %(drug)s wakati wa ujauzito",
    ),
    "Review %(drug)s in pregnancy": (
        "Réévaluer %(drug)s pendant la grossesse",
        "Reavaliar %(drug)s na gravidez",
        "Revisar %(drug)s en el embarazo",
        "Kagua %(drug)s wakati wa ujauzito",
    ),
    "Pregnancy on the problem list:": (
        "Grossesse dans la liste des problèmes :",
        "Gravidez na lista de problemas:",
        "Embarazo en la lista de problemas:",
        "Ujauzito kwenye orodha ya matatizo:",
    ),
    "Nothing on the problem list says she is pregnant (the problem list was read); that is not a "
    "pregnancy test: ask her or test if it matters.": (
        "Rien dans la liste des problèmes n'indique une grossesse (la liste a été lue) ; ce n'est "
        "pas un test de grossesse : lui demander ou faire un test si cela compte.",
        "Nada na lista de problemas indica gravidez (a lista foi lida); isso não é um teste de "
        "gravidez: pergunte a ela ou faça o teste se for relevante.",
        "Nada en la lista de problemas indica embarazo (la lista fue leída); eso no es una prueba "
        "de embarazo: pregúntele o haga la prueba si importa.",
        "Hakuna kwenye orodha ya matatizo kinachoonyesha ujauzito (orodha ilisomwa); hicho si "
        "kipimo cha ujauzito: muulize au pima ikiwa ni muhimu.",
    ),
    "Avoid %(drug)s while breastfeeding": (
        "Éviter %(drug)s pendant l'allaitement",
        "Evitar %(drug)s durante a amamentação",
        "Evitar %(drug)s durante la lactancia",
        "Epuka %(drug)s wakati wa kunyonyesha",
    ),
    "Stop %(drug)s while breastfeeding": (
        "Arrêter %(drug)s pendant l'allaitement",
        "Suspender %(drug)s durante a amamentação",
        "Suspender %(drug)s durante la lactancia",
        "Acha %(drug)s wakati wa kunyonyesha",
    ),
    "Review %(drug)s while breastfeeding": (
        "Réévaluer %(drug)s pendant l'allaitement",
        "Reavaliar %(drug)s durante a amamentação",
        "Revisar %(drug)s durante la lactancia",
        "Kagua %(drug)s wakati wa kunyonyesha",
    ),
    "Order an HbA1c — monitoring overdue (last result %(date)s)": (
        "Prescrire une HbA1c — surveillance en retard (dernier résultat %(date)s)",
        "Solicitar HbA1c — monitorização atrasada (último resultado %(date)s)",
        "Solicitar HbA1c — control atrasado (último resultado %(date)s)",
        "Agiza HbA1c — ufuatiliaji umechelewa (matokeo ya mwisho %(date)s)",
    ),
    "Order an HbA1c — monitoring overdue (no result on file)": (
        "Prescrire une HbA1c — surveillance en retard (aucun résultat au dossier)",
        "Solicitar HbA1c — monitorização atrasada (nenhum resultado no prontuário)",
        "Solicitar HbA1c — control atrasado (ningún resultado en la historia)",
        "Agiza HbA1c — ufuatiliaji umechelewa (hakuna matokeo kwenye faili)",
    ),
    "Check %(test)s on %(drug)s — no result on file": (
        "Contrôler : %(test)s sous %(drug)s — aucun résultat au dossier",
        "Verificar %(test)s em uso de %(drug)s — nenhum resultado no prontuário",
        "Controlar %(test)s con %(drug)s — ningún resultado en la historia",
        "Pima %(test)s ukiwa kwenye %(drug)s — hakuna matokeo kwenye faili",
    ),
    "Check %(test)s on %(drug)s — %(value)s on %(date)s": (
        "Contrôler : %(test)s sous %(drug)s — %(value)s le %(date)s",
        "Verificar %(test)s em uso de %(drug)s — %(value)s em %(date)s",
        "Controlar %(test)s con %(drug)s — %(value)s el %(date)s",
        "Pima %(test)s ukiwa kwenye %(drug)s — %(value)s tarehe %(date)s",
    ),
    "Avoid %(drug)s — %(condition)s on the problem list": (
        "Éviter %(drug)s — %(condition)s dans la liste des problèmes",
        "Evitar %(drug)s — %(condition)s na lista de problemas",
        "Evitar %(drug)s — %(condition)s en la lista de problemas",
        "Epuka %(drug)s — %(condition)s kwenye orodha ya matatizo",
    ),
    "Caution with %(drug)s — %(condition)s on the problem list": (
        "Prudence avec %(drug)s — %(condition)s dans la liste des problèmes",
        "Cautela com %(drug)s — %(condition)s na lista de problemas",
        "Precaución con %(drug)s — %(condition)s en la lista de problemas",
        "Tahadhari na %(drug)s — %(condition)s kwenye orodha ya matatizo",
    ),
    # the patient's kidneys said by the clinician, no eGFR on file (checks/patient_rules.py)
    "Avoid %(drug)s — %(condition)s, said by the clinician": (
        "Éviter %(drug)s — %(condition)s, selon le clinicien",
        "Evitar %(drug)s — %(condition)s, segundo o clínico",
        "Evitar %(drug)s — %(condition)s, según el clínico",
        "Epuka %(drug)s — %(condition)s, kama alivyosema daktari",
    ),
    "Caution with %(drug)s — %(condition)s, said by the clinician": (
        "Prudence avec %(drug)s — %(condition)s, selon le clinicien",
        "Cautela com %(drug)s — %(condition)s, segundo o clínico",
        "Precaución con %(drug)s — %(condition)s, según el clínico",
        "Tahadhari na %(drug)s — %(condition)s, kama alivyosema daktari",
    ),
    "kidney failure": (
        "insuffisance rénale", "insuficiência renal", "insuficiencia renal",
        "figo kushindwa kufanya kazi",
    ),
    "kidney failure on dialysis": (
        "insuffisance rénale sous dialyse", "insuficiência renal em diálise",
        "insuficiencia renal en diálisis", "figo kushindwa kufanya kazi, kwenye dialisisi",
    ),
    "Do not start %(drug)s — %(test)s %(value)s on %(date)s, above %(limit)s": (
        "Ne pas débuter %(drug)s — %(test)s %(value)s le %(date)s, au-dessus de %(limit)s",
        "Não iniciar %(drug)s — %(test)s %(value)s em %(date)s, acima de %(limit)s",
        "No iniciar %(drug)s — %(test)s %(value)s el %(date)s, por encima de %(limit)s",
        "Usianze %(drug)s — %(test)s %(value)s tarehe %(date)s, juu ya %(limit)s",
    ),
    "Review %(drug)s — %(test)s %(value)s on %(date)s, above %(limit)s": (
        "Réévaluer %(drug)s — %(test)s %(value)s le %(date)s, au-dessus de %(limit)s",
        "Reavaliar %(drug)s — %(test)s %(value)s em %(date)s, acima de %(limit)s",
        "Revisar %(drug)s — %(test)s %(value)s el %(date)s, por encima de %(limit)s",
        "Kagua %(drug)s — %(test)s %(value)s tarehe %(date)s, juu ya %(limit)s",
    ),
    "Check the %(drug)s dose — %(dose)s mg is above %(most)s mg for a child of %(kg)s kg": (
        "Vérifier la dose de %(drug)s — %(dose)s mg "
        "dépasse %(most)s mg pour un enfant de %(kg)s kg",
        "Verificar a dose de %(drug)s — %(dose)s mg está "
        "acima de %(most)s mg para uma criança de %(kg)s kg",
        "Verificar la dosis de %(drug)s — %(dose)s mg supera %(most)s mg para un niño de %(kg)s kg",
        "Hakiki dozi ya %(drug)s — mg %(dose)s imezidi mg %(most)s kwa mtoto wa kg %(kg)s",
    ),
    # on dialysis or her kidneys said to be poor in the conversation (checks/patient_rules.py)
    "Avoid %(drug)s — on dialysis (said by the clinician)": (
        "Éviter %(drug)s — sous dialyse (dit par le clinicien)",
        "Evitar %(drug)s — em diálise (dito pelo clínico)",
        "Evitar %(drug)s — en diálisis (dicho por el clínico)",
        "Epuka %(drug)s — yuko kwenye dialisisi (imesemwa na daktari)",
    ),
    "Caution with %(drug)s — on dialysis (said by the clinician)": (
        "Prudence avec %(drug)s — sous dialyse (dit par le clinicien)",
        "Cautela com %(drug)s — em diálise (dito pelo clínico)",
        "Precaución con %(drug)s — en diálisis (dicho por el clínico)",
        "Tahadhari na %(drug)s — yuko kwenye dialisisi (imesemwa na daktari)",
    ),
    "Not checked: %(what)s of %(drug)s — kidney impairment said by the clinician, no %(item)s "
    "on file": (
        "Non vérifié : %(what)s de %(drug)s — insuffisance rénale dite par le clinicien, "
        "%(item)s absent du dossier",
        "Não verificado: %(what)s de %(drug)s — insuficiência renal dita pelo clínico, "
        "%(item)s ausente do prontuário",
        "No verificado: %(what)s de %(drug)s — insuficiencia renal dicha por el clínico, "
        "%(item)s ausente de la historia",
        "Haijakaguliwa: %(what)s ya %(drug)s — figo dhaifu kulingana na daktari, %(item)s "
        "haipo kwenye faili",
    ),
    "Not checked: %(what)s of %(drug)s — no %(item)s on file": (
        "Non vérifié : %(what)s de %(drug)s — %(item)s absent du dossier",
        "Não verificado: %(what)s de %(drug)s — %(item)s ausente do prontuário",
        "No verificado: %(what)s de %(drug)s — %(item)s ausente de la historia",
        "Haijakaguliwa: %(what)s ya %(drug)s — %(item)s haipo kwenye faili",
    ),
    "eGFR": ("DFG estimé", "TFG estimada", "TFG estimada", "eGFR"),
    "potassium": ("kaliémie", "potássio", "potasio", "potasiamu"),
    "weight": ("poids", "peso", "peso", "uzito"),
    "pregnancy status": (
        "statut de grossesse",
        "estado de gravidez",
        "estado de embarazo",
        "hali ya ujauzito",
    ),
    "renal dosing": (
        "adaptation de dose à la fonction rénale",
        "ajuste de dose à função renal",
        "ajuste de dosis a la función renal",
        "dozi kulingana na figo",
    ),
    "hyperkalaemia risk": (
        "risque d'hyperkaliémie",
        "risco de hipercalemia",
        "riesgo de hiperpotasemia",
        "hatari ya potasiamu kuzidi",
    ),
    "the weight-based dose for a child": (
        "la dose pédiatrique selon le poids",
        "a dose pediátrica por peso",
        "la dosis pediátrica por peso",
        "dozi ya mtoto kwa uzito",
    ),
    "pregnancy safety": (
        "sécurité pendant la grossesse",
        "segurança na gravidez",
        "seguridad en el embarazo",
        "usalama wakati wa ujauzito",
    ),
    "The patient's %(part)s could not be read, so that check did not run.": (
        "Impossible de lire %(part)s du patient : cette vérification n'a pas été faite.",
        "Não foi possível ler %(part)s do paciente: essa verificação não foi feita.",
        "No se pudo leer %(part)s del paciente: esa verificación no se hizo.",
        "%(part)s za mgonjwa hazikuweza kusomwa, hivyo ukaguzi huo haukufanyika.",
    ),
    "active medications": (
        "les traitements en cours",
        "os medicamentos em uso",
        "los medicamentos activos",
        "Dawa zinazotumika",
    ),
    "allergies": ("les allergies", "as alergias", "las alergias", "Mzio"),
    "problem list": (
        "la liste des problèmes",
        "a lista de problemas",
        "la lista de problemas",
        "Orodha ya matatizo",
    ),
    "lab results": (
        "les résultats biologiques",
        "os resultados de exames",
        "los resultados de laboratorio",
        "Matokeo ya maabara",
    ),
    "The patient's %(type)s records could not be read, so that safety check did not run.": (
        "Impossible de lire les ressources %(type)s du patient "
        ": cette vérification de sécurité n'a pas été faite.",
        "Não foi possível ler os registros %(type)s do "
        "paciente: essa verificação de segurança não foi feita.",
        "No se pudieron leer los registros %(type)s del "
        "paciente: esa verificación de seguridad no se hizo.",
        "Rekodi za %(type)s za mgonjwa hazikuweza kusomwa, "
        "hivyo ukaguzi huo wa usalama haukufanyika.",
    ),
    "The FDA label for %(drug)s could not be checked for a boxed warning.": (
        "La notice FDA de %(drug)s n'a pas pu être vérifiée (mise en garde encadrée).",
        "A bula FDA de %(drug)s não pôde ser verificada quanto a alerta em destaque.",
        "No se pudo revisar la ficha FDA de %(drug)s en busca de advertencia destacada.",
        "Lebo ya FDA ya %(drug)s haikuweza kukaguliwa kwa onyo maalum.",
    ),
    "Boxed warning: %(text)s": (
        "Mise en garde encadrée (notice FDA, en anglais) : %(text)s",
        "Alerta em destaque (bula FDA, em inglês): %(text)s",
        "Advertencia destacada (ficha FDA, en inglés): %(text)s",
        "Onyo maalum (lebo ya FDA, kwa Kiingereza): %(text)s",
    ),
    "%(drug)s could not be identified, so allergies and interactions were not checked for it.": (
        "%(drug)s n'a pas pu être identifié : allergies et interactions non vérifiées.",
        "%(drug)s não pôde ser identificado: alergias e interações não foram verificadas.",
        "%(drug)s no pudo identificarse: alergias e interacciones no verificadas.",
        "%(drug)s haikuweza kutambuliwa, hivyo mzio na mwingiliano havikukaguliwa.",
    ),
    "The patient has an active order for %(drug)s, which this allergy calls into question.": (
        "Le patient a une prescription en cours de %(drug)s, que cette allergie remet en cause.",
        "O paciente tem uma prescrição ativa de %(drug)s, que esta alergia põe em dúvida.",
        "El paciente tiene una indicación activa de %(drug)s, que esta alergia pone en duda.",
        "Mgonjwa ana agizo linalotumika la %(drug)s, ambalo mzio huu unalitilia shaka.",
    ),
    "An allergy to %(substance)s is already recorded.": (
        "Une allergie à %(substance)s est déjà enregistrée.",
        "Uma alergia a %(substance)s já está registrada.",
        "Ya hay una alergia a %(substance)s registrada.",
        "Mzio wa %(substance)s tayari umerekodiwa.",
    ),
    "The chart already lists allergies (%(listed)s); "
    "recording no known allergy contradicts them.": (
        "Le dossier mentionne déjà des allergies (%(listed)s) "
        "; noter « pas d'allergie connue » les contredit.",
        "O prontuário já lista alergias (%(listed)s); "
        "registrar « sem alergias conhecidas » as contradiz.",
        "La historia ya registra alergias (%(listed)s); "
        "anotar «sin alergias conocidas» las contradice.",
        "Faili tayari lina mzio (%(listed)s); kurekodi «hakuna mzio unaojulikana» kunapingana nao.",
    ),
    # the patient-safety check's lines in a tool's text (checks/drug_safety.py,
    # tools/sources/drugs.py)
    "Patient safety check against this patient's chart:": (
        "Vérification de sécurité sur le dossier de ce patient :",
        "Verificação de segurança no prontuário deste paciente:",
        "Verificación de seguridad en la historia de este paciente:",
        "Ukaguzi wa usalama kwenye faili la mgonjwa huyu:",
    ),
    "Weight-based dose of %(drug)s for this child: %(per_kg)s mg/kg a dose = %(dose)s mg for "
    "%(kg)s kg (weight of %(date)s), at most %(most)s mg a dose (%(source)s).": (
        "Dose de %(drug)s selon le poids pour cet enfant : %(per_kg)s mg/kg par prise = %(dose)s "
        "mg pour %(kg)s kg (poids du %(date)s), au plus %(most)s mg par prise (%(source)s).",
        "Dose de %(drug)s pelo peso para esta criança: %(per_kg)s mg/kg por dose = %(dose)s mg "
        "para %(kg)s kg (peso de %(date)s), no máximo %(most)s mg por dose (%(source)s).",
        "Dosis de %(drug)s según el peso para este niño: %(per_kg)s mg/kg por dosis = %(dose)s mg "
        "para %(kg)s kg (peso del %(date)s), como máximo %(most)s mg por dosis (%(source)s).",
        "Dozi ya %(drug)s kwa uzito kwa mtoto huyu: %(per_kg)s mg/kg kwa dozi = %(dose)s mg kwa "
        "kilo %(kg)s (uzito wa %(date)s), si zaidi ya %(most)s mg kwa dozi (%(source)s).",
    ),
    "Not covered: the drug–disease rules have no rule for %(problems)s, so "
    "nothing is claimed about them for %(drugs)s.": (
        "Non couvert : les règles médicament–maladie n'ont aucune règle pour %(problems)s ; rien "
        "n'est donc affirmé à leur sujet pour %(drugs)s.",
        "Não coberto: as regras medicamento–doença não têm regra para %(problems)s; nada é, "
        "portanto, afirmado sobre elas para %(drugs)s.",
        "No cubierto: las reglas fármaco–enfermedad no tienen ninguna regla para %(problems)s; "
        "por tanto, no se afirma nada sobre ellas para %(drugs)s.",
        "Haijashughulikiwa: kanuni za dawa–ugonjwa hazina kanuni ya %(problems)s, kwa hiyo "
        "hakuna kinachodaiwa kuzihusu kwa %(drugs)s.",
    ),
    "No card waiting for approval matches what you asked to cancel, so nothing was withdrawn "
    "and nothing new was drafted. Pending: %(cards)s.": (
        "Aucune carte en attente d'approbation ne correspond à ce que vous avez demandé "
        "d'annuler : rien n'a été retiré et rien de nouveau n'a été préparé. En attente : "
        "%(cards)s.",
        "Nenhum cartão aguardando aprovação corresponde ao que pediu para cancelar; nada foi "
        "retirado e nada de novo foi preparado. Pendentes: %(cards)s.",
        "Ninguna tarjeta pendiente de aprobación coincide con lo que pidió cancelar; no se retiró "
        "nada ni se preparó nada nuevo. Pendientes: %(cards)s.",
        "Hakuna kadi inayosubiri idhini inayolingana na ulichoomba kughairi, kwa hiyo hakuna "
        "kilichoondolewa na hakuna kipya kilichoandaliwa. Zinazosubiri: %(cards)s.",
    ),
    "Nothing was written: approval is given on the card itself. Press Approve on the card below "
    "to write it to the record, or Reject to withdraw it.": (
        "Rien n'a été écrit : l'approbation se donne sur la carte elle-même. Appuyez sur Approuver "
        "sur la carte ci-dessous pour l'inscrire au dossier, ou sur Rejeter pour la retirer.",
        "Nada foi escrito: a aprovação é dada no próprio cartão. Carregue em Aprovar no cartão "
        "abaixo para o registar no prontuário, ou em Rejeitar para o retirar.",
        "No se escribió nada: la aprobación se da en la propia tarjeta. Pulse Aprobar en la "
        "tarjeta de abajo para registrarla en la historia, o Rechazar para retirarla.",
        "Hakuna kilichoandikwa: idhini hutolewa kwenye kadi yenyewe. Bonyeza Idhinisha kwenye kadi "
        "iliyo hapa chini ili kuiandika kwenye rekodi, au Kataa ili kuiondoa.",
    ),
    "since %(day)s": ("depuis %(day)s", "desde %(day)s", "desde %(day)s", "tangu %(day)s"),
    "Not covered: the renal rules have no entry for %(drugs)s, and no kidney result is on "
    "file; kidney dosing was not checked.": (
        "Non couvert : les règles rénales n'ont aucune entrée pour %(drugs)s et aucun résultat "
        "rénal n'est au dossier ; l'adaptation rénale n'a pas été vérifiée.",
        "Não coberto: as regras renais não têm entrada para %(drugs)s e não há resultado renal "
        "no prontuário; o ajuste renal não foi verificado.",
        "No cubierto: las reglas renales no tienen ninguna entrada para %(drugs)s y no hay "
        "resultado renal en la historia; el ajuste renal no se comprobó.",
        "Haijashughulikiwa: kanuni za figo hazina kipengele cha %(drugs)s, na hakuna matokeo ya "
        "figo kwenye rekodi; dozi kwa figo haikukaguliwa.",
    ),
    "Not covered: the renal rules have no entry for %(drugs)s, so no dose "
    "is checked against %(renal)s.": (
        "Non couvert : les règles rénales n'ont aucune entrée pour %(drugs)s ; aucune dose n'est "
        "donc vérifiée au regard de %(renal)s.",
        "Não coberto: as regras renais não têm entrada para %(drugs)s; nenhuma dose é, portanto, "
        "verificada em relação a %(renal)s.",
        "No cubierto: las reglas renales no tienen ninguna entrada para %(drugs)s; por tanto, "
        "ninguna dosis se comprueba frente a %(renal)s.",
        "Haijashughulikiwa: kanuni za figo hazina kipengele cha %(drugs)s, kwa hiyo hakuna dozi "
        "iliyokaguliwa dhidi ya %(renal)s.",
    ),
    "No weight on file: %(drug)s %(dose)s is not worked out in mg. Weigh the patient or "
    "write the dose in mg.": (
        "Aucun poids au dossier : %(drug)s %(dose)s n'est pas converti en mg. Pesez le patient "
        "ou écrivez la dose en mg.",
        "Nenhum peso no prontuário: %(drug)s %(dose)s não é convertido em mg. Pese o paciente "
        "ou escreva a dose em mg.",
        "Ningún peso en la historia: %(drug)s %(dose)s no se convierte a mg. Pese al paciente "
        "o escriba la dosis en mg.",
        "Hakuna uzito kwenye rekodi: %(drug)s %(dose)s haijahesabiwa kwa mg. Pima uzito wa "
        "mgonjwa au andika dozi kwa mg.",
    ),
    "Sources disagree — %(grades)s. The higher grade is shown.": (
        "Les sources divergent — %(grades)s. Le niveau le plus élevé est retenu.",
        "As fontes divergem — %(grades)s. É mostrado o grau mais alto.",
        "Las fuentes discrepan — %(grades)s. Se muestra el grado más alto.",
        "Vyanzo vinatofautiana — %(grades)s. Kiwango cha juu kinaonyeshwa."),
    "No paediatric range on file for %(drug)s": (
        "Pas de fourchette pédiatrique enregistrée pour %(drug)s",
        "Sem faixa pediátrica registada para %(drug)s",
        "Sin rango pediátrico registrado para %(drug)s",
        "Hakuna kiwango cha watoto kilichorekodiwa kwa %(drug)s",
    ),
    "No interaction found for %(pairs)s in the offline interaction tables "
    "or the FDA labels' interaction, contraindication and boxed-warning "
    "text. Absence of label text is not proof that a combination is safe.": (
        "Aucune interaction trouvée pour %(pairs)s dans les tables d'interactions hors ligne ni "
        "dans les rubriques interactions, contre-indications et mises en garde encadrées des "
        "notices FDA. L'absence de mention dans "
        "une notice ne prouve pas que l'association est sans danger.",
        "Nenhuma interação encontrada para %(pairs)s nas tabelas de interações offline nem nas "
        "seções de interações, contraindicações e advertências em destaque das bulas da FDA. A "
        "ausência de menção na bula "
        "não prova que a associação é segura.",
        "No se encontró ninguna interacción para %(pairs)s en las tablas de interacciones sin "
        "conexión ni en las secciones de interacciones, contraindicaciones y advertencias en "
        "recuadro de los prospectos de la FDA. "
        "Que el prospecto no lo mencione no prueba que la combinación sea segura.",
        "Hakuna mwingiliano uliopatikana kwa %(pairs)s katika majedwali ya mwingiliano nje ya "
        "mtandao wala katika sehemu za mwingiliano, vizuizi na maonyo ya kisanduku ya lebo za FDA. "
        "Kukosekana kwa maandishi ya lebo "
        "si uthibitisho kwamba mchanganyiko ni salama.",
    ),
    "No FDA label was found for %(drugs)s, so its label could not be checked.": (
        "Aucune notice FDA trouvée pour %(drugs)s : sa notice n'a pas pu être vérifiée.",
        "Nenhuma bula da FDA encontrada para %(drugs)s: a bula não pôde ser verificada.",
        "No se encontró el prospecto de la FDA de %(drugs)s: no se pudo verificar.",
        "Hakuna lebo ya FDA iliyopatikana kwa %(drugs)s, kwa hiyo lebo yake haikuweza kukaguliwa.",
    ),
    "Age: not known (no birth date in the record).": (
        "Âge : inconnu (pas de date de naissance dans le dossier).",
        "Idade: desconhecida (sem data de nascimento no prontuário).",
        "Edad: desconocida (sin fecha de nacimiento en la historia).",
        "Umri: haujulikani (hakuna tarehe ya kuzaliwa kwenye rekodi).",
    ),
    "Age: %(age)s years at death on %(died)s (born %(born)s).": (
        "Âge : %(age)s ans au décès le %(died)s (né(e) le %(born)s).",
        "Idade: %(age)s anos ao falecer em %(died)s (nascido(a) em %(born)s).",
        "Edad: %(age)s años al fallecer el %(died)s (nacido/a el %(born)s).",
        "Umri: miaka %(age)s alipofariki %(died)s (alizaliwa %(born)s).",
    ),
    "Age: %(age)s years (born %(born)s).": (
        "Âge : %(age)s ans (né(e) le %(born)s).",
        "Idade: %(age)s anos (nascido(a) em %(born)s).",
        "Edad: %(age)s años (nacido/a el %(born)s).",
        "Umri: miaka %(age)s (alizaliwa %(born)s).",
    ),
    # the ward orders' and the class checks' sentences (proposals/describe.py, checks/rules.py,
    # tools/chart/chart.py)
    "Avoid %(drug)s in this child (%(age)s)": (
        "Éviter %(drug)s chez cet enfant (%(age)s)",
        "Evitar %(drug)s nesta criança (%(age)s)",
        "Evitar %(drug)s en este niño (%(age)s)",
        "Epuka %(drug)s kwa mtoto huyu (%(age)s)",
    ),
    "The pending order for %(drug)s was withdrawn; nothing was written to the chart.": (
        "La prescription en attente de %(drug)s a été retirée ; rien n'a été écrit dans le "
        "dossier.",
        "A prescrição pendente de %(drug)s foi retirada; nada foi escrito no prontuário.",
        "La orden pendiente de %(drug)s fue retirada; no se escribió nada en la historia clínica.",
        "Agizo linalosubiri la %(drug)s limeondolewa; hakuna kilichoandikwa kwenye rekodi.",
    ),
    "Waiting for your approval (nothing has been written yet):": (
        "En attente de votre validation (rien n'a encore été écrit) :",
        "Aguardando a sua aprovação (nada foi escrito ainda):",
        "Pendiente de su aprobación (todavía no se escribió nada):",
        "Inasubiri idhini yako (hakuna kilichoandikwa bado):",
    ),
    "The order for %(drug)s is no longer pending; nothing was changed.": (
        "La prescription de %(drug)s n'est plus en attente ; rien n'a été modifié.",
        "A prescrição de %(drug)s já não está pendente; nada foi alterado.",
        "La orden de %(drug)s ya no está pendiente; no se cambió nada.",
        "Agizo la %(drug)s halisubiri tena; hakuna kilichobadilishwa.",
    ),
    # readings told with a plan asked, said back and not recorded (agent/nodes._readings_told)
    "Read as told, taken at %(time)s: %(readings)s. Not recorded: ask to record them and a card "
    "is drafted for your approval.": (
        "Lu tel que dit, pris à %(time)s : %(readings)s. Non enregistré : demandez de les "
        "enregistrer et une fiche est préparée pour votre approbation.",
        "Lido como dito, medido às %(time)s: %(readings)s. Não registrado: peça para registrá-los "
        "e um cartão é preparado para a sua aprovação.",
        "Leído tal como se dijo, tomado a las %(time)s: %(readings)s. No registrado: pida "
        "registrarlos y se prepara una tarjeta para su aprobación.",
        "Imesomwa kama ilivyoelezwa, ilichukuliwa saa %(time)s: %(readings)s. Haijarekodiwa: "
        "omba kuzirekodi na kadi itaandaliwa kwa idhini yako.",
    ),
    "Read as told: %(readings)s. Not recorded: ask to record them and a card is drafted for your "
    "approval.": (
        "Lu tel que dit : %(readings)s. Non enregistré : demandez de les enregistrer et une fiche "
        "est préparée pour votre approbation.",
        "Lido como dito: %(readings)s. Não registrado: peça para registrá-los e um cartão é "
        "preparado para a sua aprovação.",
        "Leído tal como se dijo: %(readings)s. No registrado: pida registrarlos y se prepara una "
        "tarjeta para su aprobación.",
        "Imesomwa kama ilivyoelezwa: %(readings)s. Haijarekodiwa: omba kuzirekodi na kadi "
        "itaandaliwa kwa idhini yako.",
    ),
    "No problem plan is held here for what you asked: the plans cover a raised potassium, a "
    "high INR on warfarin and a low glucose, each from its cited protocol. Ask for a result, the "
    "care gaps, or a drug's safety check instead.": (
        "Aucun plan de prise en charge n'existe ici pour cette demande : les plans couvrent une "
        "kaliémie élevée, un INR élevé sous warfarine et une glycémie basse, chacun selon son "
        "protocole cité. Demandez plutôt un résultat, les soins en retard ou la vérification "
        "d'un médicament.",
        "Nenhum plano de conduta existe aqui para o que pediu: os planos cobrem o potássio "
        "elevado, o INR alto em uso de varfarina e a glicemia baixa, cada um pelo seu "
        "protocolo citado. Peça antes um resultado, os cuidados em atraso ou a verificação de "
        "um medicamento.",
        "No hay aquí un plan de manejo para lo que pidió: los planes cubren el potasio elevado, "
        "el INR alto con warfarina y la glucemia baja, cada uno según su protocolo citado. Pida "
        "mejor un resultado, los cuidados pendientes o la verificación de un medicamento.",
        "Hakuna mpango wa tatizo hapa kwa ulichoomba: mipango inahusu potasiamu iliyo juu, INR "
        "iliyo juu kwa warfarin na sukari iliyo chini damuni, kila mmoja kwa itifaki yake "
        "iliyotajwa. Omba matokeo, mapengo ya huduma, au ukaguzi wa usalama wa dawa badala yake.",
    ),
    "%(kind)s: none on the active medication list.": (
        "%(kind)s : aucun sur la liste des traitements actifs.",
        "%(kind)s: nenhum na lista de medicamentos ativos.",
        "%(kind)s: ninguno en la lista de medicamentos activos.",
        "%(kind)s: hakuna kwenye orodha ya dawa zinazotumika.",
    ),
    "%(kind)s on the active medication list: %(drugs)s.": (
        "%(kind)s sur la liste des traitements actifs : %(drugs)s.",
        "%(kind)s na lista de medicamentos ativos: %(drugs)s.",
        "%(kind)s en la lista de medicamentos activos: %(drugs)s.",
        "%(kind)s kwenye orodha ya dawa zinazotumika: %(drugs)s.",
    ),
    "No drug was named, so none was checked on its own: what was checked is the current "
    "medication list's review. Name the drug (an NSAID, an opioid, paracetamol) to check it "
    "against this chart.": (
        "Aucun médicament n'a été nommé, donc aucun n'a été vérifié en lui-même : ce qui a été "
        "vérifié est la revue du traitement en cours. Nommez le médicament (un AINS, un "
        "opioïde, le paracétamol) pour le vérifier sur ce dossier.",
        "Nenhum medicamento foi nomeado, por isso nenhum foi verificado por si: o que se "
        "verificou foi a revisão da medicação atual. Nomeie o medicamento (um AINE, um "
        "opioide, o paracetamol) para o verificar neste prontuário.",
        "No se nombró ningún medicamento, así que ninguno se verificó por sí mismo: lo "
        "verificado es la revisión de la medicación actual. Nombre el medicamento (un AINE, "
        "un opioide, el paracetamol) para verificarlo en esta historia clínica.",
        "Hakuna dawa iliyotajwa, kwa hivyo hakuna iliyokaguliwa peke yake: kilichokaguliwa ni "
        "mapitio ya orodha ya dawa za sasa. Taja dawa (NSAID, opioid, paracetamol) ili "
        "kuikagua dhidi ya rekodi hii.",
    ),
    "No drug was named, so none was checked on its own: what was checked is the current "
    "medication list's review, with the allergies on file. Name the drug to check it against "
    "this chart.": (
        "Aucun médicament n'a été nommé, donc aucun n'a été vérifié en lui-même : ce qui a été "
        "vérifié est la revue du traitement en cours, avec les allergies du dossier. Nommez le "
        "médicament pour le vérifier sur ce dossier.",
        "Nenhum medicamento foi nomeado, por isso nenhum foi verificado por si: o que se "
        "verificou foi a revisão da medicação atual, com as alergias registadas. Nomeie o "
        "medicamento para o verificar neste prontuário.",
        "No se nombró ningún medicamento, así que ninguno se verificó por sí mismo: lo "
        "verificado es la revisión de la medicación actual, con las alergias registradas. "
        "Nombre el medicamento para verificarlo en esta historia clínica.",
        "Hakuna dawa iliyotajwa, kwa hivyo hakuna iliyokaguliwa peke yake: kilichokaguliwa ni "
        "mapitio ya orodha ya dawa za sasa, pamoja na mzio uliorekodiwa. Taja dawa ili "
        "kuikagua dhidi ya rekodi hii.",
    ),
    "Not ordered: %(tests)s — not a test this site's lab table names; order it by its full name "
    "or in the EHR.": (
        "Non prescrit : %(tests)s — examen absent de la table des examens de ce site ; "
        "prescrivez-le sous son nom complet ou dans le DPI.",
        "Não pedido: %(tests)s — exame que a tabela de exames deste local não contém; peça-o pelo "
        "nome completo ou no prontuário eletrônico.",
        "No solicitado: %(tests)s — prueba que la tabla de pruebas de este centro no contiene; "
        "solicítela por su nombre completo o en la historia clínica electrónica.",
        "Haikuagizwa: %(tests)s — kipimo ambacho jedwali la vipimo la kituo hiki halina; "
        "kiagize kwa jina lake kamili au kwenye EHR.",
    ),
    "The order for %(old)s was withdrawn; its dose is not carried over to %(drug)s.": (
        "La prescription de %(old)s a été retirée ; sa dose n'est pas reprise pour %(drug)s.",
        "A prescrição de %(old)s foi retirada; a dose dela não passa para %(drug)s.",
        "La orden de %(old)s se retiró; su dosis no se traslada a %(drug)s.",
        "Agizo la %(old)s limeondolewa; dozi yake haihamishiwi kwa %(drug)s.",
    ),
    "No card is waiting for your approval, so nothing was approved or written. Say what to order "
    "or record, with its value where one is asked.": (
        "Aucune carte n'attend votre approbation : rien n'a été approuvé ni écrit. Dites ce qu'il "
        "faut prescrire ou enregistrer, avec sa valeur quand elle est demandée.",
        "Nenhum cartão aguarda a sua aprovação, por isso nada foi aprovado nem escrito. Diga o que "
        "pedir ou registar, com o valor quando for pedido.",
        "Ninguna tarjeta espera su aprobación, así que nada se aprobó ni se escribió. Diga qué "
        "pedir o registrar, con su valor cuando se pida.",
        "Hakuna kadi inayosubiri idhini yako, kwa hiyo hakuna kilichoidhinishwa wala kuandikwa. "
        "Sema cha kuagiza au kurekodi, pamoja na thamani yake inapoulizwa.",
    ),
    "Nothing is pending to withdraw: no card of yours is waiting for approval. An order already "
    "approved is in the record: to stop a drug on the list, name it (\"stop the aspirin\"), and "
    "the stop is a card you approve.": (
        "Rien à retirer : aucune de vos cartes n'attend d'approbation. Une prescription déjà "
        "approuvée est dans le dossier : pour arrêter un médicament de la liste, nommez-le "
        "(« arrête l'aspirine »), et l'arrêt est une carte que vous approuvez.",
        "Nada pendente para retirar: nenhum cartão seu aguarda aprovação. Uma prescrição já "
        "aprovada está no prontuário: para suspender um medicamento da lista, diga qual "
        "(\"suspender o AAS\"), e a suspensão é um cartão que você aprova.",
        "Nada pendiente que retirar: ninguna de sus tarjetas espera aprobación. Una orden ya "
        "aprobada está en la historia: para suspender un fármaco de la lista, nómbrelo "
        "(\"suspende la aspirina\"), y la suspensión es una tarjeta que usted aprueba.",
        "Hakuna kinachosubiri kuondolewa: hakuna kadi yako inayosubiri idhini. Agizo "
        "lililokwisha idhinishwa liko kwenye rekodi: kusitisha dawa kwenye orodha, itaje "
        "(\"sitisha aspirini\"), na usitishaji ni kadi unayoidhinisha.",
    ),
    "Your last message named %(drugs)s: which one do you mean? Name it (for example \"stop "
    "%(first)s\"); nothing was drafted.": (
        "Votre dernier message nommait %(drugs)s : lequel voulez-vous dire ? Nommez-le (par "
        "exemple « arrête %(first)s ») ; rien n'a été préparé.",
        "A sua última mensagem nomeou %(drugs)s: qual deles? Diga qual (por exemplo \"suspender "
        "%(first)s\"); nada foi preparado.",
        "Su último mensaje nombró %(drugs)s: ¿cuál de ellos? Nómbrelo (por ejemplo \"suspende "
        "%(first)s\"); no se preparó nada.",
        "Ujumbe wako wa mwisho ulitaja %(drugs)s: unamaanisha ipi? Itaje (kwa mfano \"sitisha "
        "%(first)s\"); hakuna kilichoandaliwa.",
    ),
    "The medication review could not run: %(parts)s could not be read.": (
        "La revue des médicaments n'a pas pu être faite : %(parts)s n'a pas pu être lu.",
        "A revisão dos medicamentos não pôde ser feita: %(parts)s não pôde ser lido.",
        "La revisión de la medicación no pudo hacerse: %(parts)s no se pudo leer.",
        "Mapitio ya dawa hayakuweza kufanyika: %(parts)s haikuweza kusomwa.",
    ),
    "Nothing was stopped or held: %(drugs)s is not on the patient's active medication list.": (
        "Rien n'a été arrêté ni suspendu : %(drugs)s ne figure pas sur la liste des médicaments "
        "actifs du patient.",
        "Nada foi suspenso nem interrompido: %(drugs)s não está na lista de medicamentos ativos "
        "do doente.",
        "No se suspendió ni se retuvo nada: %(drugs)s no está en la lista de medicamentos "
        "activos del paciente.",
        "Hakuna kilichositishwa wala kusimamishwa: %(drugs)s hakimo kwenye orodha ya dawa "
        "zinazotumika za mgonjwa.",
    ),
    "Nothing was stopped or held: %(drugs)s stays on the medication list until it is stopped or "
    "held in the EHR (this assistant drafts a stop said plainly, one drug a message; never a "
    "hold).": (
        "Rien n'a été arrêté ni suspendu : %(drugs)s reste sur la liste des médicaments "
        "jusqu'à son arrêt ou sa suspension dans le DPI (cet assistant prépare un arrêt demandé "
        "clairement, un médicament par message ; jamais une suspension temporaire).",
        "Nada foi suspenso nem interrompido: %(drugs)s continua na lista de medicamentos até ser "
        "suspenso ou interrompido no prontuário eletrônico (este assistente prepara uma "
        "suspensão pedida claramente, um medicamento por mensagem; nunca uma pausa).",
        "No se suspendió ni se retuvo nada: %(drugs)s sigue en la lista de medicamentos hasta "
        "que se suspenda o retenga en la historia clínica electrónica (este asistente prepara "
        "una suspensión pedida claramente, un medicamento por mensaje; nunca una pausa).",
        "Hakuna kilichositishwa wala kusimamishwa: %(drugs)s kinabaki kwenye orodha ya dawa hadi "
        "kisitishwe au kisimamishwe kwenye EHR (msaidizi huyu huandaa usitishaji ulioombwa "
        "waziwazi, dawa moja kwa ujumbe; kamwe si usimamishaji wa muda).",
    ),
    "%(drug)s is not on the active medication list, so no stop was prepared.": (
        "%(drug)s ne figure pas sur la liste des médicaments actifs : aucun arrêt n'a été "
        "préparé.",
        "%(drug)s não está na lista de medicamentos ativos, por isso não foi preparada nenhuma "
        "suspensão.",
        "%(drug)s no está en la lista de medicamentos activos, así que no se preparó ninguna "
        "suspensión.",
        "%(drug)s hakimo kwenye orodha ya dawa zinazotumika, kwa hiyo hakuna usitishaji "
        "ulioandaliwa.",
    ),
    "%(drug)s is on the active list more than once, so no stop was prepared: which order stops?": (
        "%(drug)s figure plus d'une fois sur la liste active : aucun arrêt n'a été préparé. "
        "Quelle prescription faut-il arrêter ?",
        "%(drug)s está mais de uma vez na lista ativa, por isso não foi preparada nenhuma "
        "suspensão: qual prescrição deve ser suspensa?",
        "%(drug)s está más de una vez en la lista activa, así que no se preparó ninguna "
        "suspensión: ¿qué orden se suspende?",
        "%(drug)s kimo kwenye orodha zaidi ya mara moja, kwa hiyo hakuna usitishaji "
        "ulioandaliwa: ni agizo lipi lisitishwe?",
    ),
    "Only one order is prepared per message: %(others)s was checked with it but not ordered; "
    "ask for it in its own message to order it.": (
        "Une seule prescription est préparée par message : %(others)s a été vérifié avec elle mais "
        "pas prescrit ; demandez-le dans son propre message pour le prescrire.",
        "Só uma prescrição é preparada por mensagem: %(others)s foi verificado com ela mas não "
        "prescrito; peça-o numa mensagem própria para o prescrever.",
        "Solo se prepara una orden por mensaje: %(others)s se comprobó con ella pero no se "
        "prescribió; pídalo en su propio mensaje para prescribirlo.",
        "Agizo moja tu huandaliwa kwa kila ujumbe: %(others)s imekaguliwa pamoja nalo lakini "
        "haikuagizwa; iombe katika ujumbe wake ili kuiagiza.",
    ),
    "Not covered: %(drugs)s names a class of drugs, so only the class's rules were applied; each "
    "drug's own rules (its dose, kidney dosing, its own interactions) were not. Name the drug to "
    "check it.": (
        "Non couvert : %(drugs)s désigne une classe de médicaments ; seules les règles de la "
        "classe ont été appliquées, pas celles propres à chaque médicament (sa dose, "
        "l'adaptation rénale, ses propres interactions). Nommez le médicament pour le vérifier.",
        "Não coberto: %(drugs)s designa uma classe de medicamentos; só as regras da classe foram "
        "aplicadas, não as de cada medicamento (a sua dose, o ajuste renal, as suas próprias "
        "interações). Indique o medicamento para o verificar.",
        "No cubierto: %(drugs)s designa una clase de fármacos; solo se aplicaron las reglas de la "
        "clase, no las de cada fármaco (su dosis, el ajuste renal, sus propias interacciones). "
        "Indique el fármaco para comprobarlo.",
        "Haijashughulikiwa: %(drugs)s ni kundi la dawa; sheria za kundi pekee ndizo zilitumika, si "
        "za kila dawa (kipimo chake, marekebisho ya figo, mwingiliano wake). Taja dawa ili "
        "kuikagua.",
    ),
    "The earlier card was withdrawn: this order replaces it.": (
        "La carte précédente a été retirée : cette prescription la remplace.",
        "O cartão anterior foi retirado: esta prescrição o substitui.",
        "La tarjeta anterior fue retirada: esta orden la reemplaza.",
        "Kadi ya awali imeondolewa: agizo hili linaichukua nafasi yake.",
    ),
    "Check the %(drug)s dose — %(dose)s for a child of %(kg)s kg": (
        "Vérifier la dose de %(drug)s — %(dose)s pour un enfant de %(kg)s kg",
        "Verificar a dose de %(drug)s — %(dose)s para uma criança de %(kg)s kg",
        "Revisar la dosis de %(drug)s — %(dose)s para un niño de %(kg)s kg",
        "Kagua dozi ya %(drug)s — %(dose)s kwa mtoto wa kilo %(kg)s",
    ),
    "Do not add %(drug)s — %(others)s is already ordered (same class)": (
        "Ne pas ajouter %(drug)s — %(others)s est déjà prescrit (même classe)",
        "Não acrescentar %(drug)s — %(others)s já está prescrito (mesma classe)",
        "No añadir %(drug)s — %(others)s ya está indicado (misma clase)",
        "Usiongeze %(drug)s — %(others)s tayari imeagizwa (kundi moja)",
    ),
    "Do not give %(drug)s to this child (%(age)s)": (
        "Ne pas donner %(drug)s à cet enfant (%(age)s)",
        "Não dar %(drug)s a esta criança (%(age)s)",
        "No dar %(drug)s a este niño (%(age)s)",
        "Usimpe mtoto huyu %(drug)s (%(age)s)",
    ),
    "Medication review of %(count)s active medication(s) against this patient's chart:": (
        "Revue de %(count)s médicament(s) actif(s) au regard du dossier de ce patient :",
        "Revisão de %(count)s medicamento(s) ativo(s) em relação ao prontuário deste paciente:",
        "Revisión de %(count)s medicamento(s) activo(s) frente a la historia de este paciente:",
        "Mapitio ya dawa %(count)s zinazotumika dhidi ya rekodi ya mgonjwa huyu:",
    ),
    "Order %(what)s (%(system)s %(code)s)": (
        "Demander %(what)s (%(system)s %(code)s)",
        "Solicitar %(what)s (%(system)s %(code)s)",
        "Solicitar %(what)s (%(system)s %(code)s)",
        "Agiza %(what)s (%(system)s %(code)s)",
    ),
    "Record %(what)s %(value)s": (
        "Enregistrer %(what)s %(value)s",
        "Registrar %(what)s %(value)s",
        "Registrar %(what)s %(value)s",
        "Rekodi %(what)s %(value)s",
    ),
    "Refer: %(what)s (%(system)s %(code)s)": (
        "Adresser : %(what)s (%(system)s %(code)s)",
        "Encaminhar: %(what)s (%(system)s %(code)s)",
        "Derivar: %(what)s (%(system)s %(code)s)",
        "Rufaa: %(what)s (%(system)s %(code)s)",
    ),
    "Reviewed: %(drugs)s.": (
        "Revus : %(drugs)s.",
        "Revisados: %(drugs)s.",
        "Revisados: %(drugs)s.",
        "Zimekaguliwa: %(drugs)s.",
    ),
    "Switch rather than add %(drug)s — %(others)s is already ordered (same class)": (
        "Remplacer plutôt qu'ajouter %(drug)s — %(others)s est déjà prescrit (même classe)",
        "Substituir em vez de acrescentar %(drug)s — %(others)s já está prescrito (mesma classe)",
        "Sustituir en lugar de añadir %(drug)s — %(others)s ya está indicado (misma clase)",
        "Badilisha badala ya kuongeza %(drug)s — %(others)s tayari imeagizwa (kundi moja)",
    ),
    "a service": ("un service", "um serviço", "un servicio", "huduma"),
    "an observation": ("une observation", "uma observação", "una observación", "kipimo"),
    "for %(reason)s": ("pour %(reason)s", "para %(reason)s", "para %(reason)s", "kwa %(reason)s"),
    "for %(when)s": ("pour %(when)s", "para %(when)s", "para %(when)s", "kwa %(when)s"),
    "once": ("une fois", "uma vez", "una vez", "mara moja"),
    "over %(n)s %(unit)s": (
        "sur %(n)s %(unit)s",
        "em %(n)s %(unit)s",
        "en %(n)s %(unit)s",
        "kwa %(n)s %(unit)s",
    ),
    "Checked for this patient's %(parts)s.": (
        "Vérifié pour ce patient : %(parts)s.",
        "Verificado para este paciente: %(parts)s.",
        "Verificado para este paciente: %(parts)s.",
        "Imekaguliwa kwa mgonjwa huyu: %(parts)s.",
    ),
    "age %(age)s (age list: %(source)s)": (
        "âge %(age)s ans (liste par âge : %(source)s)",
        "idade %(age)s anos (lista por idade: %(source)s)",
        "edad %(age)s años (lista por edad: %(source)s)",
        "umri miaka %(age)s (orodha ya umri: %(source)s)",
    ),
    "latest kidney function %(renal)s": (
        "dernière fonction rénale %(renal)s",
        "última função renal %(renal)s",
        "última función renal %(renal)s",
        "utendaji wa figo wa mwisho %(renal)s",
    ),
    "The patient's %(parts)s could not be read, so those checks did not run. Do not assume the "
    "drug is safe for this patient.": (
        "Impossible de lire %(parts)s du patient : ces vérifications n'ont pas été faites. Ne pas "
        "en conclure que le médicament est sûr pour ce patient.",
        "Não foi possível ler %(parts)s do paciente: essas verificações não foram feitas. Não "
        "presuma que o medicamento é seguro para este paciente.",
        "No se pudo leer %(parts)s del paciente: esas verificaciones no se hicieron. No asuma que "
        "el medicamento es seguro para este paciente.",
        "%(parts)s za mgonjwa hazikuweza kusomwa, hivyo ukaguzi huo haukufanyika. Usidhani kwamba "
        "dawa ni salama kwa mgonjwa huyu.",
    ),
    "Patient safety check of %(drugs)s: nothing found in the %(checked)s.": (
        "Vérification de sécurité de %(drugs)s pour ce patient : rien trouvé dans %(checked)s.",
        "Verificação de segurança de %(drugs)s para este paciente: nada encontrado em %(checked)s.",
        "Verificación de seguridad de %(drugs)s para "
        "este paciente: nada encontrado en %(checked)s.",
        "Ukaguzi wa usalama wa %(drugs)s: hakuna kilichopatikana katika %(checked)s.",
    ),
    "Patient safety check of %(drugs)s: no finding in the rules that hold it; the rules that "
    "do not are named below.": (
        "Vérification de sécurité de %(drugs)s pour ce patient : aucun signal dans les règles qui "
        "le couvrent ; celles qui ne le couvrent pas sont nommées ci-dessous.",
        "Verificação de segurança de %(drugs)s para este paciente: nenhum alerta nas regras que o "
        "cobrem; as que não o cobrem são indicadas abaixo.",
        "Verificación de seguridad de %(drugs)s para este paciente: ningún hallazgo en las reglas "
        "que lo cubren; las que no lo cubren se indican abajo.",
        "Ukaguzi wa usalama wa %(drugs)s: hakuna tatizo katika kanuni zinazoihusu; kanuni "
        "zisizoihusu zimetajwa hapa chini.",
    ),
    "Patient safety check of %(drugs)s: no finding in the checks that ran; those that could "
    "not run for want of a result are named above.": (
        "Vérification de sécurité de %(drugs)s pour ce patient : aucun signal dans les "
        "vérifications faites ; celles qui n'ont pu être faites faute de résultat sont nommées "
        "plus haut.",
        "Verificação de segurança de %(drugs)s para este paciente: nenhum alerta nas verificações "
        "feitas; as que não puderam ser feitas por falta de resultado são indicadas acima.",
        "Verificación de seguridad de %(drugs)s para este paciente: ningún hallazgo en las "
        "comprobaciones hechas; las que no pudieron hacerse por falta de resultado se indican "
        "arriba.",
        "Ukaguzi wa usalama wa %(drugs)s: hakuna tatizo katika ukaguzi uliofanyika; ule "
        "usiofanyika kwa kukosa matokeo umetajwa hapo juu.",
    ),
    "Do not give more than %(cap)s mg of %(drug)s a day with %(others)s": (
        "Ne pas dépasser %(cap)s mg de %(drug)s par jour avec %(others)s",
        "Não dar mais de %(cap)s mg de %(drug)s por dia com %(others)s",
        "No dar más de %(cap)s mg de %(drug)s al día con %(others)s",
        "Usitoe zaidi ya %(cap)s mg za %(drug)s kwa siku pamoja na %(others)s",
    ),
    "Keep %(drug)s to at most %(cap)s mg a day with %(others)s": (
        "Limiter %(drug)s à %(cap)s mg par jour au plus avec %(others)s",
        "Manter %(drug)s em no máximo %(cap)s mg por dia com %(others)s",
        "Mantener %(drug)s en %(cap)s mg al día como máximo con %(others)s",
        "Weka %(drug)s kwa kiwango cha juu cha %(cap)s mg kwa siku pamoja na %(others)s",
    ),
    "Why each active medication was ordered, as its order states it:": (
        "Pourquoi chaque traitement actif a été prescrit, selon sa prescription :",
        "Por que cada medicamento ativo foi prescrito, segundo a sua prescrição:",
        "Por qué se prescribió cada medicamento activo, según su orden:",
        "Kwa nini kila dawa inayotumika iliagizwa, kama agizo lake linavyosema:",
    ),
    "no reason on the order": (
        "aucune indication sur la prescription",
        "nenhuma indicação na prescrição",
        "ninguna indicación en la orden",
        "hakuna sababu kwenye agizo",
    ),
    "Not checked: the %(drug)s dose — no mg stated (give the strength, e.g. mg per 5 mL)": (
        "Non vérifié : la dose de %(drug)s — aucun mg indiqué (donner la concentration, p. ex. mg "
        "par 5 mL)",
        "Não verificado: a dose de %(drug)s — nenhum mg indicado (indique a concentração, "
        "p. ex. mg por 5 mL)",
        "No verificado: la dosis de %(drug)s — no se indican mg (indique la concentración, p. ej. "
        "mg por 5 mL)",
        "Haijakaguliwa: dozi ya %(drug)s — hakuna mg iliyotajwa (taja nguvu, mfano mg kwa 5 mL)",
    ),
    "on %(day)s": ("le %(day)s", "em %(day)s", "el %(day)s", "tarehe %(day)s"),
    "Only the newest %(n)s results were read and the window holds more: the count, mean, "
    "highest and lowest below are of those read.": (
        "Seuls les %(n)s résultats les plus récents ont été lus et la période en contient "
        "davantage : le nombre, la moyenne, le maximum et le minimum ci-dessous portent sur "
        "ceux-ci.",
        "Só os %(n)s resultados mais recentes foram lidos e o período tem mais: a contagem, a "
        "média, o máximo e o mínimo abaixo referem-se a esses.",
        "Solo se leyeron los %(n)s resultados más recientes y el periodo tiene más: el recuento, "
        "la media, el máximo y el mínimo de abajo son de esos.",
        "Ni matokeo %(n)s ya karibuni tu yaliyosomwa na kipindi kina zaidi: idadi, wastani, juu "
        "na chini hapa chini ni ya yale yaliyosomwa.",
    ),
    "No notes or letters on file.": (
        "Aucune note ni aucun courrier au dossier.",
        "Nenhuma nota ou carta no prontuário.",
        "No hay notas ni cartas en la historia.",
        "Hakuna maelezo wala barua kwenye faili.",
    ),
    "offline interaction tables, allergy cross-reactivity, pregnancy/lactation, renal, "
    "drug–disease and lab rules of the knowledge core": (
        "les tables d'interactions hors ligne, les allergies "
        "croisées, les règles grossesse/allaitement, rénales, "
        "médicament–maladie et biologiques de la base de connaissances",
        "as tabelas de interações offline, as alergias cruzadas, as regras de "
        "gravidez/amamentação, renais, medicamento–doença e laboratoriais da base de conhecimento",
        "las tablas de interacciones sin conexión, las alergias cruzadas, "
        "las reglas de embarazo/lactancia, renales, medicamento–enfermedad "
        "y de laboratorio de la base de conocimiento",
        "jedwali za mwingiliano nje ya mtandao, mzio unaohusiana, kanuni za ujauzito/kunyonyesha, "
        "figo, dawa–ugonjwa na maabara",
    ),
    "Checked against the patient's active medications "
    "(%(meds)s) and recorded allergies (%(allergies)s).": (
        "Vérifié par rapport aux traitements en cours du patient (%(meds)s) et aux allergies "
        "enregistrées (%(allergies)s).",
        "Verificado com os medicamentos em uso do paciente (%(meds)s) e as alergias registradas "
        "(%(allergies)s).",
        "Verificado con los medicamentos activos del paciente (%(meds)s) y las alergias "
        "registradas (%(allergies)s).",
        "Imekaguliwa dhidi ya dawa zinazotumika za mgonjwa "
        "(%(meds)s) na mzio uliorekodiwa (%(allergies)s).",
    ),
    "Nothing found for %(pairs)s in the offline interaction "
    "tables (the FDA labels could not be checked).": (
        "Rien trouvé pour %(pairs)s dans les tables d'interactions hors ligne (les notices FDA "
        "n'ont pas pu être vérifiées).",
        "Nada encontrado para %(pairs)s nas tabelas de interações offline (as bulas FDA não "
        "puderam ser verificadas).",
        "Nada encontrado para %(pairs)s en las tablas de interacciones sin conexión (no se "
        "pudieron revisar las fichas FDA).",
        "Hakuna kilichopatikana kwa %(pairs)s kwenye jedwali "
        "za mwingiliano (lebo za FDA hazikuweza kukaguliwa).",
    ),
    # chart answers (tools/chart/answers.py)
    "%(what)s: NOT AVAILABLE (%(why)s) — do not assume there are none.": (
        "%(what)s : NON DISPONIBLE (%(why)s) — ne pas en conclure qu'il n'y en a pas.",
        "%(what)s: NÃO DISPONÍVEL (%(why)s) — não presuma que não haja.",
        "%(what)s: NO DISPONIBLE (%(why)s) — no asuma que no los hay.",
        "%(what)s: HAIPATIKANI (%(why)s) — usidhani kwamba hakuna.",
    ),
    "Vital signs": ("Signes vitaux", "Sinais vitais", "Signos vitales", "Dalili muhimu"),
    "Active medications": (
        "Traitements en cours",
        "Medicamentos em uso",
        "Medicamentos activos",
        "Dawa zinazotumika",
    ),
    "Interaction check of the active medications": (
        "Vérification des interactions des traitements en cours",
        "Verificação de interações dos medicamentos em uso",
        "Verificación de interacciones de los medicamentos activos",
        "Ukaguzi wa mwingiliano wa dawa zinazotumika",
    ),
    "Problem list": (
        "Liste des problèmes",
        "Lista de problemas",
        "Lista de problemas",
        "Orodha ya matatizo",
    ),
    # her past problems asked ("any fractures in her history?": tools/chart/answers._history)
    "Past problems": (
        "Antécédents",
        "Problemas anteriores",
        "Problemas previos",
        "Matatizo ya awali",
    ),
    "Past problems: none recorded (resolved and inactive conditions were read).": (
        "Antécédents : aucun enregistré (les problèmes résolus et inactifs ont été lus).",
        "Problemas anteriores: nenhum registrado (os problemas resolvidos e inativos foram lidos).",
        "Problemas previos: ninguno registrado (se leyeron los problemas resueltos e inactivos).",
        "Matatizo ya awali: hakuna yaliyorekodiwa (matatizo yaliyopona na yasiyo hai yalisomwa).",
    ),
    "Past problems (resolved or inactive), newest first:": (
        "Antécédents (problèmes résolus ou inactifs), du plus récent au plus ancien :",
        "Problemas anteriores (resolvidos ou inativos), do mais recente ao mais antigo:",
        "Problemas previos (resueltos o inactivos), del más reciente al más antiguo:",
        "Matatizo ya awali (yaliyopona au yasiyo hai), ya karibuni kwanza:",
    ),
    "Immunisations": ("Vaccinations", "Vacinas", "Vacunas", "Chanjo"),
    "Encounters": ("Consultations", "Atendimentos", "Consultas", "Ziara"),
    "No %(name)s result in the chart (searched LOINC %(codes)s, all dates).": (
        "Aucun résultat de %(name)s au dossier (LOINC %(codes)s recherchés, toutes dates).",
        "Nenhum resultado de %(name)s no prontuário (LOINC %(codes)s pesquisados, todas as datas).",
        "Ningún resultado de %(name)s en la historia (LOINC %(codes)s buscados, todas las fechas).",
        "Hakuna matokeo ya %(name)s kwenye faili (LOINC %(codes)s zimetafutwa, tarehe zote).",
    ),
    "Latest %(name)s: %(value)s %(unit)s on %(date)s "
    "(%(direction)s from %(before)s on %(then)s).": (
        "Dernier résultat de %(name)s : %(value)s %(unit)s le "
        "%(date)s (%(direction)s depuis %(before)s le %(then)s).",
        "Último resultado de %(name)s: %(value)s %(unit)s em "
        "%(date)s (%(direction)s de %(before)s em %(then)s).",
        "Último resultado de %(name)s: %(value)s %(unit)s el "
        "%(date)s (%(direction)s desde %(before)s el %(then)s).",
        "%(name)s ya mwisho: %(value)s %(unit)s tarehe %(date)s "
        "(%(direction)s kutoka %(before)s tarehe %(then)s).",
    ),
    "Latest %(name)s: %(value)s %(unit)s on %(date)s (the only result).": (
        "Dernier résultat de %(name)s : %(value)s %(unit)s le %(date)s (seul résultat).",
        "Último resultado de %(name)s: %(value)s %(unit)s em %(date)s (único resultado).",
        "Último resultado de %(name)s: %(value)s %(unit)s el %(date)s (único resultado).",
        "%(name)s ya mwisho: %(value)s %(unit)s tarehe %(date)s (matokeo pekee).",
    ),
    "the newest %(n)s read": (
        "les %(n)s plus récents lus",
        "os %(n)s mais recentes lidos",
        "los %(n)s más recientes leídos",
        "%(n)s mapya zaidi yamesomwa",
    ),
    "%(n)s in all": ("%(n)s en tout", "%(n)s no total", "%(n)s en total", "%(n)s kwa jumla"),
    "Last %(n)s results, newest first: %(trend)s (%(total)s).": (
        "%(n)s derniers résultats, du plus récent au plus ancien : %(trend)s (%(total)s).",
        "Últimos %(n)s resultados, do mais recente ao mais antigo: %(trend)s (%(total)s).",
        "Últimos %(n)s resultados, del más reciente al más antiguo: %(trend)s (%(total)s).",
        "Matokeo %(n)s ya mwisho, mapya kwanza: %(trend)s (%(total)s).",
    ),
    "NOT AVAILABLE (%(why)s) — do not assume there are none.": (
        "NON DISPONIBLE (%(why)s) — ne pas en conclure qu'il n'y en a pas.",
        "NÃO DISPONÍVEL (%(why)s) — não presuma que não haja.",
        "NO DISPONIBLE (%(why)s) — no asuma que no los hay.",
        "HAIPATIKANI (%(why)s) — usidhani kwamba hakuna.",
    ),
    "Allergies:": ("Allergies :", "Alergias:", "Alergias:", "Mzio:"),
    "Active problems (%(n)s):": (
        "Problèmes actifs (%(n)s) :",
        "Problemas ativos (%(n)s):",
        "Problemas activos (%(n)s):",
        "Matatizo yanayoendelea (%(n)s):",
    ),
    "Social and administrative findings:": (
        "Éléments sociaux et administratifs :",
        "Dados sociais e administrativos:",
        "Datos sociales y administrativos:",
        "Taarifa za kijamii na kiutawala:",
    ),
    "Active medications (%(n)s):": (
        "Traitements en cours (%(n)s) :",
        "Medicamentos em uso (%(n)s):",
        "Medicamentos activos (%(n)s):",
        "Dawa zinazotumika (%(n)s):",
    ),
    "Recent encounters:": (
        "Consultations récentes :",
        "Atendimentos recentes:",
        "Consultas recientes:",
        "Ziara za hivi karibuni:",
    ),
    "Immunisations (latest dose of each):": (
        "Vaccinations (dernière dose de chacune) :",
        "Vacinas (última dose de cada):",
        "Vacunas (última dosis de cada una):",
        "Chanjo (dozi ya mwisho ya kila moja):",
    ),
    "Vitals (oldest → newest):": (
        "Signes vitaux (du plus ancien au plus récent) :",
        "Sinais vitais (do mais antigo ao mais recente):",
        "Signos vitales (del más antiguo al más reciente):",
        "Dalili muhimu (za zamani → mpya):",
    ),
    "Labs (oldest → newest):": (
        "Biologie (du plus ancien au plus récent) :",
        "Exames (do mais antigo ao mais recente):",
        "Laboratorio (del más antiguo al más reciente):",
        "Maabara (za zamani → mpya):",
    ),
    "- none recorded": (
        "- aucun enregistré",
        "- nenhum registrado",
        "- ninguno registrado",
        "- hakuna kilichorekodiwa",
    ),
    "No blood pressure recorded in the chart.": (
        "Aucune tension artérielle enregistrée au dossier.",
        "Nenhuma pressão arterial registrada no prontuário.",
        "Ninguna presión arterial registrada en la historia.",
        "Hakuna shinikizo la damu kwenye faili.",
    ),
    " — no reading recorded today": (
        " — aucune mesure enregistrée aujourd'hui",
        " — nenhuma medida registrada hoje",
        " — ninguna medición registrada hoy",
        " — hakuna kipimo leo",
    ),
    "Latest blood pressure: %(value)s %(unit)s on %(date)s%(note)s.": (
        "Dernière tension artérielle : %(value)s %(unit)s le %(date)s%(note)s.",
        "Última pressão arterial: %(value)s %(unit)s em %(date)s%(note)s.",
        "Última presión arterial: %(value)s %(unit)s el %(date)s%(note)s.",
        "Shinikizo la damu la mwisho: %(value)s %(unit)s tarehe %(date)s%(note)s.",
    ),
    "Earlier systolic: %(values)s.": (
        "Systoliques précédentes : %(values)s.",
        "Sistólicas anteriores: %(values)s.",
        "Sistólicas anteriores: %(values)s.",
        "Systolic za awali: %(values)s.",
    ),
    "Allergies: none recorded (the allergy list was read and is empty).": (
        "Allergies : aucune enregistrée (la liste des allergies a été lue et est vide).",
        "Alergias: nenhuma registrada (a lista de alergias foi lida e está vazia).",
        "Alergias: ninguna registrada (la lista de alergias se leyó y está vacía).",
        "Mzio: hakuna uliorekodiwa (orodha ya mzio imesomwa na iko tupu).",
    ),
    "Allergies: no known allergies (recorded as such in the chart).": (
        "Allergies : pas d'allergie connue (enregistré comme tel au dossier).",
        "Alergias: sem alergias conhecidas (registrado assim no prontuário).",
        "Alergias: sin alergias conocidas (registrado así en la historia).",
        "Mzio: hakuna mzio unaojulikana (umerekodiwa hivyo kwenye faili).",
    ),
    # an image whose analysis failed, as the record a finding is checked against
    # (grounding/evidence.py)
    "The attached image (its analysis did not complete)": (
        "L'image jointe (son analyse n'a pas abouti)",
        "A imagem anexada (a análise não foi concluída)",
        "La imagen adjunta (su análisis no se completó)",
        "Picha iliyoambatishwa (uchambuzi wake haukukamilika)",
    ),
    # the app's own database down (web/errorpages.py)
    "The assistant's database is not answering, so nothing was done. Try again in a minute; if it "
    "goes on, tell the administrator.": (
        "La base de données de l'assistant ne répond pas : rien n'a été fait. Réessayez dans une "
        "minute ; si cela continue, prévenez l'administrateur.",
        "O banco de dados do assistente não responde: nada foi feito. Tente de novo em um minuto; "
        "se continuar, avise o administrador.",
        "La base de datos del asistente no responde: no se hizo nada. Vuelva a intentarlo en un "
        "minuto; si continúa, avise al administrador.",
        "Hifadhidata ya msaidizi haijibu, hivyo hakuna kilichofanyika. Jaribu tena baada ya dakika "
        "moja; ikiendelea, mjulishe msimamizi.",
    ),
    # source failures (errors.SourceError.said)
    "The %(label)s could not be reached, so %(unavailable)s is unavailable right now.": (
        "Le service %(label)s est injoignable : "
        "%(unavailable)s n'est pas disponible pour le moment.",
        "O serviço %(label)s está inacessível: %(unavailable)s não está disponível no momento.",
        "El servicio %(label)s no responde: %(unavailable)s no está disponible por ahora.",
        "Huduma ya %(label)s haipatikani, hivyo %(unavailable)s haipatikani kwa sasa.",
    ),
    "The %(label)s is busy (request limit reached), so %(unavailable)s is unavailable right now. "
    "Try again in a minute.": (
        "Le service %(label)s est saturé (limite de requêtes atteinte) : %(unavailable)s n'est pas "
        "disponible pour le moment. Réessayez dans une minute.",
        "O serviço %(label)s está sobrecarregado (limite de pedidos): %(unavailable)s não está "
        "disponível no momento. Tente de novo em um minuto.",
        "El servicio %(label)s está saturado (límite de solicitudes): %(unavailable)s no está "
        "disponible por ahora. Vuelva a intentarlo en un minuto.",
        "Huduma ya %(label)s ina shughuli nyingi, hivyo %(unavailable)s haipatikani kwa sasa. "
        "Jaribu tena baada ya dakika moja.",
    ),
    "The %(label)s could not process this search, so %(unavailable)s is unavailable. Rephrase it "
    "with a single drug, condition or topic name.": (
        "Le service %(label)s n'a pas pu traiter cette recherche : %(unavailable)s n'est pas "
        "disponible. Reformulez avec un seul médicament, une maladie ou un sujet.",
        "O serviço %(label)s não conseguiu processar esta busca: %(unavailable)s não está "
        "disponível. Reformule com um único medicamento, condição ou tema.",
        "El servicio %(label)s no pudo procesar esta búsqueda: %(unavailable)s no está disponible. "
        "Reformule con un solo medicamento, condición o tema.",
        "Huduma ya %(label)s haikuweza kushughulikia utafutaji huu, hivyo %(unavailable)s "
        "haipatikani. Andika upya kwa jina moja la dawa, ugonjwa au mada.",
    ),
    "The %(label)s refused the request (its access key was not accepted), so %(unavailable)s is "
    "unavailable. An administrator should check the API key.": (
        "Le service %(label)s a refusé la requête (clé d'accès refusée) : %(unavailable)s n'est "
        "pas disponible. Un administrateur doit vérifier la clé d'API.",
        "O serviço %(label)s recusou o pedido (chave de acesso não aceita): %(unavailable)s não "
        "está disponível. Um administrador deve verificar a chave de API.",
        "El servicio %(label)s rechazó la solicitud (clave de acceso no aceptada): %(unavailable)s "
        "no está disponible. Un administrador debe revisar la clave de API.",
        "Huduma ya %(label)s imekataa ombi (ufunguo haukukubaliwa), hivyo %(unavailable)s "
        "haipatikani. Msimamizi akague ufunguo wa API.",
    ),
    "%(what)s %(caution)s": ("%(what)s %(caution)s",) * 4,
    "drug-safety information": (
        "l'information de sécurité du médicament",
        "a informação de segurança do medicamento",
        "la información de seguridad del medicamento",
        "taarifa za usalama wa dawa",
    ),
    "Do not assume the drug is safe.": (
        "Ne pas en conclure que le médicament est sûr.",
        "Não presuma que o medicamento é seguro.",
        "No asuma que el medicamento es seguro.",
        "Usidhani kwamba dawa ni salama.",
    ),
    "the FDA label interaction check": (
        "la vérification des interactions dans les notices FDA",
        "a verificação de interações nas bulas FDA",
        "la verificación de interacciones en las fichas FDA",
        "ukaguzi wa mwingiliano kwenye lebo za FDA",
    ),
    "Only the offline interaction tables (ANSM thesaurus, ONC high-priority list) were checked. "
    "Do not assume there is no interaction.": (
        "Seules les tables d'interactions hors ligne (thésaurus ANSM, liste prioritaire ONC) ont "
        "été consultées. Ne pas en conclure qu'il n'y a pas d'interaction.",
        "Apenas as tabelas de interações offline (tesauro ANSM, lista prioritária ONC) foram "
        "consultadas. Não presuma que não há interação.",
        "Solo se consultaron las tablas de interacciones sin conexión (tesauro ANSM, lista "
        "prioritaria ONC). No asuma que no hay interacción.",
        "Jedwali za mwingiliano nje ya mtandao pekee (ANSM, orodha ya ONC) ndizo zilikaguliwa. "
        "Usidhani kwamba hakuna mwingiliano.",
    ),
    # edit errors (proposals/editing.py)
    "The edited %(type)s is not valid FHIR (%(why)s); nothing was changed.": (
        "La ressource %(type)s modifiée n'est pas du FHIR valide (%(why)s) ; rien n'a été modifié.",
        "O recurso %(type)s editado não é FHIR válido (%(why)s); nada foi alterado.",
        "El recurso %(type)s editado no es FHIR válido (%(why)s); no se cambió nada.",
        "%(type)s iliyohaririwa si FHIR halali (%(why)s); hakuna kilichobadilishwa.",
    ),
    "The dose": ("La dose", "A dose", "La dosis", "Dozi"),
    "The duration": ("La durée", "A duração", "La duración", "Muda"),
    "The quantity": ("La quantité", "A quantidade", "La cantidad", "Kiasi"),
    "a whole number of days": (
        "un nombre entier de jours",
        "um número inteiro de dias",
        "un número entero de días",
        "idadi kamili ya siku",
    ),
    "a number, e.g. 500": (
        "un nombre, p. ex. 500",
        "um número, p. ex. 500",
        "un número, p. ej. 500",
        "namba, mfano 500",
    ),
    "%(label)s must be %(kind)s; “%(value)s” is not. Nothing was changed.": (
        "%(label)s doit être %(kind)s ; « %(value)s » n'en est pas un. Rien n'a été modifié.",
        "%(label)s deve ser %(kind)s; “%(value)s” não é. Nada foi alterado.",
        "%(label)s debe ser %(kind)s; «%(value)s» no lo es. No se cambió nada.",
        "%(label)s lazima iwe %(kind)s; “%(value)s” si hivyo. Hakuna kilichobadilishwa.",
    ),
    "%(label)s must be greater than zero; “%(value)s” is not. Nothing was changed.": (
        "%(label)s doit être supérieure à zéro ; « %(value)s » ne l'est pas. Rien n'a été modifié.",
        "%(label)s deve ser maior que zero; “%(value)s” não é. Nada foi alterado.",
        "%(label)s debe ser mayor que cero; «%(value)s» no lo es. No se cambió nada.",
        "%(label)s lazima iwe zaidi ya sifuri; “%(value)s” si hivyo. Hakuna kilichobadilishwa.",
    ),
    "%(label)s must be one of: %(shown)s. Nothing was changed.": (
        "%(label)s doit être l'une des valeurs : %(shown)s. Rien n'a été modifié.",
        "%(label)s deve ser um destes: %(shown)s. Nada foi alterado.",
        "%(label)s debe ser uno de: %(shown)s. No se cambió nada.",
        "%(label)s lazima iwe mojawapo ya: %(shown)s. Hakuna kilichobadilishwa.",
    ),
    "The frequency “%(said)s” was not understood; write it as e.g. “twice daily”, “every 8 hours”, "
    "“TID” or “weekly”. Nothing was changed.": (
        "La fréquence « %(said)s » n'a pas été comprise ; écrivez par ex. « 2 fois par jour », « "
        "toutes les 8 heures », « x3/j » ou « 1 fois par semaine ». Rien n'a été modifié.",
        "A frequência “%(said)s” não foi entendida; escreva por ex. “2x ao dia”, “de 8/8h”, “3x ao "
        "dia” ou “1x por semana”. Nada foi alterado.",
        "La frecuencia «%(said)s» no se entendió; escriba p. ej. «2 veces al día», «cada 8 horas», "
        "«3 veces al día» o «semanal». No se cambió nada.",
        "Marudio “%(said)s” hayakueleweka; andika mfano “twice daily”, “every 8 hours”, “TID” au "
        "“weekly”. Hakuna kilichobadilishwa.",
    ),
    "The substance must be 2 to 60 characters. Nothing was changed.": (
        "La substance doit compter de 2 à 60 caractères. Rien n'a été modifié.",
        "A substância deve ter de 2 a 60 caracteres. Nada foi alterado.",
        "La sustancia debe tener de 2 a 60 caracteres. No se cambió nada.",
        "Dutu lazima iwe na herufi 2 hadi 60. Hakuna kilichobadilishwa.",
    ),
    "The reaction must be 2 to 80 characters. Nothing was changed.": (
        "La réaction doit compter de 2 à 80 caractères. Rien n'a été modifié.",
        "A reação deve ter de 2 a 80 caracteres. Nada foi alterado.",
        "La reacción debe tener de 2 a 80 caracteres. No se cambió nada.",
        "Mwitikio lazima uwe na herufi 2 hadi 80. Hakuna kilichobadilishwa.",
    ),
    "The note text must be 1 to %(n)s characters. Nothing was changed.": (
        "Le texte de la note doit compter de 1 à %(n)s caractères. Rien n'a été modifié.",
        "O texto da nota deve ter de 1 a %(n)s caracteres. Nada foi alterado.",
        "El texto de la nota debe tener de 1 a %(n)s caracteres. No se cambió nada.",
        "Maandishi ya dokezo lazima yawe na herufi 1 hadi %(n)s. Hakuna kilichobadilishwa.",
    ),
    # card field values and labels (web/sentences.py, web/language.py)
    "not in the shipped RxNorm tables (text only)": (
        "absent des tables RxNorm fournies (texte seul)",
        "ausente das tabelas RxNorm fornecidas (só texto)",
        "no está en las tablas RxNorm incluidas (solo texto)",
        "haipo katika jedwali za RxNorm zilizotolewa (maandishi tu)",
    ),
    "none found (text only)": (
        "aucun trouvé (texte seul)",
        "nenhum encontrado (só texto)",
        "ninguno encontrado (solo texto)",
        "haikupatikana (maandishi pekee)",
    ),
    "yes (no reason given)": (
        "oui (sans motif précisé)",
        "sim (sem motivo informado)",
        "sí (sin motivo indicado)",
        "ndiyo (bila sababu)",
    ),
    "yes, for %(reason)s": (
        "oui, pour %(reason)s",
        "sim, para %(reason)s",
        "sí, para %(reason)s",
        "ndiyo, kwa %(reason)s",
    ),
    "not stated (left unknown)": (
        "non précisé (laissé inconnu)",
        "não informado (deixado desconhecido)",
        "no indicado (se deja desconocido)",
        "haijaelezwa (imeachwa haijulikani)",
    ),
    "unconfirmed (not stated as confirmed)": (
        "non confirmée (non déclarée confirmée)",
        "não confirmada (não declarada confirmada)",
        "no confirmada (no declarada confirmada)",
        "haijathibitishwa (haikuelezwa kuwa imethibitishwa)",
    ),
    "confirmed": ("confirmée", "confirmada", "confirmada", "imethibitishwa"),
    "unconfirmed": ("non confirmée", "não confirmada", "no confirmada", "haijathibitishwa"),
    "mild": ("légère", "leve", "leve", "kidogo"),
    "moderate": ("modérée", "moderada", "moderada", "wastani"),
    "severe": ("sévère", "grave", "grave", "kali"),
    "high": ("élevée", "alta", "alta", "juu"),
    "low": ("faible", "baixa", "baja", "chini"),
    "unable-to-assess": (
        "impossible à évaluer",
        "impossível avaliar",
        "imposible de evaluar",
        "haiwezi kutathminiwa",
    ),
    "%(n)s characters": (
        "%(n)s caractères",
        "%(n)s caracteres",
        "%(n)s caracteres",
        "herufi %(n)s",
    ),
    "%(n)s days": ("%(n)s jours", "%(n)s dias", "%(n)s días", "siku %(n)s"),
    "%(n)s weeks": ("%(n)s semaines", "%(n)s semanas", "%(n)s semanas", "wiki %(n)s"),
    "%(n)s months": ("%(n)s mois", "%(n)s meses", "%(n)s meses", "miezi %(n)s"),
    "yes": ("oui", "sim", "sí", "ndiyo"),
    "not set": ("non renseigné", "não definido", "no definido", "haijawekwa"),
    "empty": ("vide", "vazio", "vacío", "tupu"),
    "No known allergy": (
        "Pas d'allergie connue",
        "Sem alergias conhecidas",
        "Sin alergias conocidas",
        "Hakuna mzio unaojulikana",
    ),
    "No known allergies": (
        "Pas d'allergie connue",
        "Sem alergias conhecidas",
        "Sin alergias conocidas",
        "Hakuna mzio unaojulikana",
    ),
    "recorded as such": (
        "enregistré comme tel",
        "registrado assim",
        "registrado así",
        "imerekodiwa hivyo",
    ),
    "Record no known allergies": (
        "Noter : pas d'allergie connue",
        "Registrar: sem alergias conhecidas",
        "Registrar: sin alergias conocidas",
        "Rekodi: hakuna mzio unaojulikana",
    ),
    "as needed for %(reason)s": (
        "si besoin, en cas de %(reason)s",
        "se necessário, em caso de %(reason)s",
        "según necesidad, en caso de %(reason)s",
        "inapohitajika, kwa %(reason)s",
    ),
    "pain": ("douleur", "dor", "dolor", "maumivu"),
    "fever": ("fièvre", "febre", "fiebre", "homa"),
    "medication": ("médicament", "medicamento", "medicamento", "dawa"),
    "food": ("aliment", "alimento", "alimento", "chakula"),
    "environment": ("environnement", "ambiente", "ambiente", "mazingira"),
    "biologic": ("biologique", "biológico", "biológico", "kibayolojia"),
    "Oral route": ("Voie orale", "Via oral", "Vía oral", "Kwa mdomo"),
    "Intravenous route": ("Voie intraveineuse", "Via intravenosa", "Vía intravenosa", "Kwa mshipa"),
    "Intramuscular route": (
        "Voie intramusculaire",
        "Via intramuscular",
        "Vía intramuscular",
        "Kwa msuli",
    ),
    "Subcutaneous route": (
        "Voie sous-cutanée",
        "Via subcutânea",
        "Vía subcutánea",
        "Chini ya ngozi",
    ),
    "Respiratory tract route": (
        "Voie inhalée",
        "Via inalatória",
        "Vía inhalatoria",
        "Kwa kuvuta pumzi",
    ),
    "Topical route": ("Voie cutanée", "Via tópica", "Vía tópica", "Kupaka"),
    "Rectal route": ("Voie rectale", "Via retal", "Vía rectal", "Kwa njia ya haja kubwa"),
    "Sublingual route": ("Voie sublinguale", "Via sublingual", "Vía sublingual", "Chini ya ulimi"),
    "intravenous": ("intraveineuse", "intravenosa", "intravenosa", "kwa mshipa"),
    "intramuscular": ("intramusculaire", "intramuscular", "intramuscular", "kwa msuli"),
    "subcutaneous": ("sous-cutanée", "subcutânea", "subcutánea", "chini ya ngozi"),
    "inhaled": ("inhalée", "inalatória", "inhalada", "kwa kuvuta"),
    "topical": ("cutanée", "tópica", "tópica", "kupaka"),
    "Duration": ("Durée", "Duração", "Duración", "Muda"),
    "Verification": ("Vérification", "Verificação", "Verificación", "Uthibitisho"),
    # the second look (agent/critic.py) and the safety topics it names
    "A safety check did not run (see the findings above); do not read its silence as safe.": (
        "Une vérification de sécurité n'a pas été faite (voir les alertes ci-dessus) : son silence "
        "ne signifie pas que c'est sûr.",
        "Uma verificação de segurança não foi feita (veja os "
        "alertas acima): o silêncio dela não significa segurança.",
        "Una verificación de seguridad no se hizo (vea las "
        "alertas arriba): su silencio no significa seguridad.",
        "Ukaguzi wa usalama haukufanyika (tazama tahadhari "
        "hapo juu); ukimya wake usichukuliwe kuwa salama.",
    ),
    "The critical %(kind)s finding above applies to "
    "this order: approve only if you have weighed it.": (
        "L'alerte critique (%(kind)s) ci-dessus concerne cette "
        "prescription : ne validez qu'après l'avoir pesée.",
        "O alerta crítico (%(kind)s) acima se aplica a esta "
        "prescrição: aprove apenas depois de avaliá-lo.",
        "La alerta crítica (%(kind)s) de arriba se aplica "
        "a esta indicación: apruebe solo tras sopesarla.",
        "Tahadhari kubwa (%(kind)s) hapo juu inahusu agizo hili: idhinisha tu baada ya kuipima.",
    ),
    "Not supported by the sources: %(claim)s": (
        "Non étayé par les sources : %(claim)s",
        "Sem apoio nas fontes: %(claim)s",
        "Sin apoyo en las fuentes: %(claim)s",
        "Haiungwi mkono na vyanzo: %(claim)s",
    ),
    "Contradicts the chart: %(claim)s": (
        "Contredit le dossier : %(claim)s",
        "Contradiz o prontuário: %(claim)s",
        "Contradice la historia: %(claim)s",
        "Inapingana na faili: %(claim)s",
    ),
    "Check not done: %(claim)s": (
        "Vérification non faite : %(claim)s",
        "Verificação não feita: %(claim)s",
        "Verificación no hecha: %(claim)s",
        "Ukaguzi haukufanyika: %(claim)s",
    ),
    "Model unavailable: only the deterministic checks ran.": (
        "Modèle indisponible : seules les vérifications par le code ont été faites.",
        "Modelo indisponível: só as verificações por código foram feitas.",
        "Modelo no disponible: solo se hicieron las verificaciones por código.",
        "Modeli haipatikani: ukaguzi wa programu pekee ndio umefanyika.",
    ),
    "The model part of the second look did not run (%(why)s).": (
        "La partie du second regard confiée au modèle n'a pas été faite (%(why)s).",
        "A parte do segundo olhar feita pelo modelo não foi feita (%(why)s).",
        "La parte de la segunda mirada a cargo del modelo no se hizo (%(why)s).",
        "Sehemu ya modeli ya ukaguzi wa pili haikufanyika (%(why)s).",
    ),
    "Checked again after the edit (version %(n)s): the knowledge checks ran on the edited order.": (
        "Revérifié après la modification (version %(n)s) : les "
        "vérifications ont porté sur la prescription modifiée.",
        "Verificado de novo após a edição (versão %(n)s): "
        "as verificações foram feitas na prescrição editada.",
        "Verificado de nuevo tras la edición (versión %(n)s): las "
        "verificaciones se hicieron sobre la indicación editada.",
        "Imekaguliwa tena baada ya kuhariri (toleo %(n)s): "
        "ukaguzi umefanywa kwenye agizo lililohaririwa.",
    ),
    "Checked again after the edit (version %(n)s): the knowledge checks ran on the edited order; "
    "the model's findings are from its review of version %(m)s.": (
        "Revérifié après la modification (version %(n)s) : les vérifications ont porté sur la "
        "prescription modifiée ; les remarques du modèle portent sur la version %(m)s.",
        "Verificado de novo após a edição (versão %(n)s): as verificações foram feitas na "
        "prescrição editada; as observações do modelo são da versão %(m)s.",
        "Verificado de nuevo tras la edición (versión %(n)s): las verificaciones se hicieron sobre "
        "la indicación editada; las observaciones del modelo son de la versión %(m)s.",
        "Imekaguliwa tena baada ya kuhariri (toleo %(n)s): ukaguzi umefanywa kwenye agizo "
        "lililohaririwa; maoni ya modeli ni ya toleo %(m)s.",
    ),
    "Prescribe %(what)s": (
        "Prescrire %(what)s",
        "Prescrever %(what)s",
        "Indicar %(what)s",
        "Agiza %(what)s",
    ),
    "Record allergy: %(what)s": (
        "Noter une allergie : %(what)s",
        "Registrar alergia: %(what)s",
        "Registrar alergia: %(what)s",
        "Rekodi mzio: %(what)s",
    ),
    "Save %(what)s": (
        "Enregistrer : %(what)s",
        "Salvar: %(what)s",
        "Guardar: %(what)s",
        "Hifadhi: %(what)s",
    ),
    "critical": ("critique", "crítico", "crítico", "hatari"),
    "warning": ("attention", "atenção", "atención", "tahadhari"),
    "info": ("info", "info", "info", "taarifa"),
    "Proposed, awaiting the clinician's approval (nothing has been written yet): %(title)s.": (
        "Proposé, en attente de la validation du clinicien "
        "(rien n'a encore été écrit) : %(title)s.",
        "Proposto, aguardando a aprovação do clínico (nada foi gravado ainda): %(title)s.",
        "Propuesto, pendiente de la aprobación del clínico (aún no se ha escrito nada): %(title)s.",
        "Imependekezwa, inasubiri idhini ya mhudumu (hakuna kilichoandikwa bado): %(title)s.",
    ),
    "Safety flag (%(severity)s): %(text)s": (
        "Alerte de sécurité (%(severity)s) : %(text)s",
        "Alerta de segurança (%(severity)s): %(text)s",
        "Alerta de seguridad (%(severity)s): %(text)s",
        "Tahadhari ya usalama (%(severity)s): %(text)s",
    ),
    "none": ("aucune", "nenhuma", "ninguna", "hakuna"),
    "safety": ("sécurité", "segurança", "seguridad", "usalama"),
    "allergy": ("allergie", "alergia", "alergia", "mzio"),
    "drug-interaction": (
        "interaction médicamenteuse",
        "interação medicamentosa",
        "interacción medicamentosa",
        "mwingiliano wa dawa",
    ),
    "drug-disease": (
        "médicament et maladie",
        "medicamento e doença",
        "medicamento y enfermedad",
        "dawa na ugonjwa",
    ),
    "renal": ("fonction rénale", "função renal", "función renal", "figo"),
    "dose": ("dose", "dose", "dosis", "dozi"),
    "pregnancy": ("grossesse", "gravidez", "embarazo", "ujauzito"),
    "lactation": ("allaitement", "amamentação", "lactancia", "kunyonyesha"),
    "age": ("âge", "idade", "edad", "umri"),
    "duplicate-order": ("doublon", "duplicidade", "duplicado", "agizo lililorudiwa"),
    "boxed_warning": (
        "mise en garde encadrée",
        "alerta em destaque",
        "advertencia destacada",
        "onyo maalum",
    ),
    "lab-contraindication": (
        "contre-indication biologique",
        "contraindicação laboratorial",
        "contraindicación de laboratorio",
        "kizuizi cha maabara",
    ),
    "paediatric-dose": ("dose pédiatrique", "dose pediátrica", "dosis pediátrica", "dozi ya mtoto"),
    "additive-therapy": (
        "association de même classe",
        "associação da mesma classe",
        "asociación de la misma clase",
        "dawa za kundi moja",
    ),
    "monitoring": ("surveillance", "monitorização", "control", "ufuatiliaji"),
    # the chart's own lines in the chart answers and the clinical trace (tools/chart/summary.py)
    "Patient: %(name)s (%(sex)s, born %(born)s%(more)s; id %(id)s)": (
        "Patient : %(name)s (%(sex)s, né(e) le %(born)s%(more)s ; id %(id)s)",
        "Paciente: %(name)s (%(sex)s, nascido(a) em %(born)s%(more)s; id %(id)s)",
        "Paciente: %(name)s (%(sex)s, nacido(a) el %(born)s%(more)s; id %(id)s)",
        "Mgonjwa: %(name)s (%(sex)s, alizaliwa %(born)s%(more)s; kitambulisho %(id)s)",
    ),
    ", %(n)s y": (", %(n)s ans", ", %(n)s anos", ", %(n)s años", ", miaka %(n)s"),
    ", deceased %(date)s": (
        ", décédé(e) le %(date)s",
        ", falecido(a) em %(date)s",
        ", fallecido(a) el %(date)s",
        ", alifariki %(date)s",
    ),
    "female": ("femme", "feminino", "femenino", "mwanamke"),
    "male": ("homme", "masculino", "masculino", "mwanamume"),
    "sex unknown": ("sexe inconnu", "sexo desconhecido", "sexo desconocido", "jinsia haijulikani"),
    " — dose and frequency not recorded": (
        " — dose et fréquence non renseignées",
        " — dose e frequência não registradas",
        " — dosis y frecuencia no registradas",
        " — dozi na marudio hayajarekodiwa",
    ),
    ", %(n)s results": (
        ", %(n)s résultats",
        ", %(n)s resultados",
        ", %(n)s resultados",
        ", matokeo %(n)s",
    ),
    "%(measure)s %(value)s on %(date)s": (
        "%(measure)s %(value)s le %(date)s",
        "%(measure)s %(value)s em %(date)s",
        "%(measure)s %(value)s el %(date)s",
        "%(measure)s %(value)s tarehe %(date)s",
    ),
    "%(measure)s %(value)s (date unknown)": (
        "%(measure)s %(value)s (date inconnue)",
        "%(measure)s %(value)s (data desconhecida)",
        "%(measure)s %(value)s (fecha desconocida)",
        "%(measure)s %(value)s (tarehe haijulikani)",
    ),
    # the CDS Hooks card's detail (checks/cards.py)
    "In English": ("En anglais", "Em inglês", "En inglés", "Kwa Kiingereza"),
    "Risk": ("Risque", "Risco", "Riesgo", "Hatari"),
    "Mechanism": ("Mécanisme", "Mecanismo", "Mecanismo", "Utaratibu"),
    "Management": ("Conduite à tenir", "Conduta", "Manejo", "Hatua za kuchukua"),
    "This patient": ("Ce patient", "Este paciente", "Este paciente", "Mgonjwa huyu"),
    # the interaction tool's rows (tools/sources/drugreport.py): the sources' texts inside stay as
    # read
    "Offline interaction tables: %(source)s": (
        "Tables d'interactions hors ligne : %(source)s",
        "Tabelas de interações offline: %(source)s",
        "Tablas de interacciones sin conexión: %(source)s",
        "Majedwali ya mwingiliano nje ya mtandao: %(source)s",
    ),
    "%(level)s — %(summary)s. Mechanism: %(mechanism)s Management: %(management)s": (
        "%(level)s — %(summary)s. Mécanisme : %(mechanism)s Conduite à tenir : %(management)s",
        "%(level)s — %(summary)s. Mecanismo: %(mechanism)s Conduta: %(management)s",
        "%(level)s — %(summary)s. Mecanismo: %(mechanism)s Manejo: %(management)s",
        "%(level)s — %(summary)s. Utaratibu: %(mechanism)s Hatua za kuchukua: %(management)s",
    ),
    '%(drug)s label, %(section)s section, mentions "%(term)s": %(excerpt)s': (
        "Notice de %(drug)s, rubrique %(section)s, mentionne « %(term)s » : %(excerpt)s",
        'Bula de %(drug)s, seção %(section)s, menciona "%(term)s": %(excerpt)s',
        'Ficha técnica de %(drug)s, sección %(section)s, menciona "%(term)s": %(excerpt)s',
        'Lebo ya %(drug)s, sehemu ya %(section)s, inataja "%(term)s": %(excerpt)s',
    ),
    (
        "%(drug)s label, %(section)s section, says no dose adjustment / no important interaction "
        'with "%(term)s": %(excerpt)s'
    ): (
        "Notice de %(drug)s, rubrique %(section)s, n'indique ni adaptation de dose ni interaction "
        "importante avec « %(term)s » : %(excerpt)s",
        "Bula de %(drug)s, seção %(section)s, não indica ajuste de dose nem interação importante "
        'com "%(term)s": %(excerpt)s',
        "Ficha técnica de %(drug)s, sección %(section)s, no indica ajuste de dosis ni interacción "
        'importante con "%(term)s": %(excerpt)s',
        "Lebo ya %(drug)s, sehemu ya %(section)s, haisemi marekebisho ya dozi wala mwingiliano "
        'muhimu na "%(term)s": %(excerpt)s',
    ),
    # the citations' labels of a tool's text and of the chart in brief (grounding/evidence.py)
    "%(tool)s (the result as read)": (
        "%(tool)s (le résultat tel que lu)",
        "%(tool)s (o resultado como lido)",
        "%(tool)s (el resultado tal como se leyó)",
        "%(tool)s (matokeo kama yalivyosomwa)",
    ),
    "Chart in brief (read at the start of the question)": (
        "Dossier en bref (lu au début de la question)",
        "Prontuário em resumo (lido no início da pergunta)",
        "Historia en resumen (leída al inicio de la pregunta)",
        "Faili kwa ufupi (lilisomwa mwanzoni mwa swali)",
    ),
    "Chart (read at the start of the question)": (
        "Dossier (lu au début de la question)",
        "Prontuário (lido no início da pergunta)",
        "Historia (leída al inicio de la pregunta)",
        "Faili (lilisomwa mwanzoni mwa swali)",
    ),
    "Patient record: %(name)s": (
        "Dossier du patient : %(name)s",
        "Prontuário do paciente: %(name)s",
        "Historia del paciente: %(name)s",
        "Faili la mgonjwa: %(name)s",
    ),
    # the tool arguments' names in the clinical trace (web/trace.py)
    "birth date": (
        "date de naissance",
        "data de nascimento",
        "fecha de nacimiento",
        "tarehe ya kuzaliwa",
    ),
    "condition": ("affection", "condição", "afección", "hali"),
    "criticality": ("criticité", "criticidade", "criticidad", "uzito"),
    "dosage": ("posologie", "posologia", "posología", "matumizi"),
    "drug name": ("médicament", "medicamento", "medicamento", "dawa"),
    "drug names": ("médicaments", "medicamentos", "medicamentos", "dawa"),
    "focus": ("objet", "foco", "foco", "lengo"),
    "frequency": ("fréquence", "frequência", "frecuencia", "marudio"),
    "medication name": ("médicament", "medicamento", "medicamento", "dawa"),
    "name": ("nom", "nome", "nombre", "jina"),
    "note text": (
        "texte de la note",
        "texto da nota",
        "texto de la nota",
        "maandishi ya kumbukumbu",
    ),
    "note type": ("type de note", "tipo de nota", "tipo de nota", "aina ya kumbukumbu"),
    "notes": ("notes", "notas", "notas", "kumbukumbu"),
    "patient id": (
        "id du patient",
        "id do paciente",
        "id del paciente",
        "kitambulisho cha mgonjwa",
    ),
    "query": ("recherche", "pesquisa", "búsqueda", "utafutaji"),
    "reaction": ("réaction", "reação", "reacción", "mmenyuko"),
    "severity": ("sévérité", "gravidade", "gravedad", "ukali"),
    "status": ("statut", "status", "estado", "hali"),
    "substance": ("substance", "substância", "sustancia", "dutu"),
    "verification": ("vérification", "verificação", "verificación", "uthibitisho"),
    # the immunisation and encounter chart answers (tools/chart/answers.py)
    "Immunisations: none recorded.": (
        "Vaccinations : aucune enregistrée.",
        "Vacinas: nenhuma registrada.",
        "Vacunas: ninguna registrada.",
        "Chanjo: hakuna iliyorekodiwa.",
    ),
    "Immunisations (latest dose of each, newest first):": (
        "Vaccinations (dernière dose de chacune, de la plus récente) :",
        "Vacinas (última dose de cada, da mais recente):",
        "Vacunas (última dosis de cada una, de la más reciente):",
        "Chanjo (dozi ya mwisho ya kila moja, ya karibuni kwanza):",
    ),
    "- %(vaccine)s: %(date)s (%(n)s recorded)": (
        "- %(vaccine)s : %(date)s (%(n)s enregistrée(s))",
        "- %(vaccine)s: %(date)s (%(n)s registrada(s))",
        "- %(vaccine)s: %(date)s (%(n)s registrada(s))",
        "- %(vaccine)s: %(date)s (%(n)s zimerekodiwa)",
    ),
    "No encounters recorded.": (
        "Aucune consultation enregistrée.",
        "Nenhum atendimento registrado.",
        "Ninguna consulta registrada.",
        "Hakuna ziara zilizorekodiwa.",
    ),
    "Admissions and emergency visits among the last %(n)s encounters (since %(date)s):": (
        "Hospitalisations et passages aux urgences parmi les %(n)s dernières consultations "
        "(depuis le %(date)s) :",
        "Internações e atendimentos de urgência entre "
        "os últimos %(n)s atendimentos (desde %(date)s):",
        "Ingresos y visitas a urgencias entre las últimas %(n)s consultas (desde el %(date)s):",
        "Kulazwa na ziara za dharura kati ya ziara %(n)s za mwisho (tangu %(date)s):",
    ),
    "- none": ("- aucune", "- nenhuma", "- ninguna", "- hakuna"),
    "Earlier admissions and emergency visits (the newest, by date):": (
        "Hospitalisations et passages aux urgences plus anciens (les plus récents, par date) :",
        "Internações e atendimentos de urgência anteriores (os mais recentes, por data):",
        "Ingresos y visitas a urgencias anteriores (los más recientes, por fecha):",
        "Kulazwa na ziara za dharura za awali (za karibuni zaidi, kwa tarehe):",
    ),
    "Most recent encounters:": (
        "Consultations les plus récentes :",
        "Atendimentos mais recentes:",
        "Consultas más recientes:",
        "Ziara za karibuni zaidi:",
    ),
    # the CDS Hooks card that opens the assistant (checks/cards.py)
    "Open DocGemma to review the chart for %(name)s and ask clinical questions": (
        "Ouvrir DocGemma pour revoir le dossier de %(name)s et poser des questions cliniques",
        "Abrir o DocGemma para revisar o prontuário de %(name)s e fazer perguntas clínicas",
        "Abrir DocGemma para revisar la historia de %(name)s y hacer preguntas clínicas",
        "Fungua DocGemma kukagua faili la %(name)s na kuuliza maswali ya kitabibu",
    ),
    "Open DocGemma to review the chart and ask clinical questions": (
        "Ouvrir DocGemma pour revoir le dossier et poser des questions cliniques",
        "Abrir o DocGemma para revisar o prontuário e fazer perguntas clínicas",
        "Abrir DocGemma para revisar la historia y hacer preguntas clínicas",
        "Fungua DocGemma kukagua faili na kuuliza maswali ya kitabibu",
    ),
    "Open DocGemma assistant": (
        "Ouvrir l'assistant DocGemma",
        "Abrir o assistente DocGemma",
        "Abrir el asistente DocGemma",
        "Fungua msaidizi wa DocGemma",
    ),
    # window questions (tools/words/windows.py, tools/chart/windowanswers.py, labanswers.py)
    "today": ("aujourd'hui", "hoje", "hoy", "leo"),
    "since yesterday": ("depuis hier", "desde ontem", "desde ayer", "tangu jana"),
    "over the weekend": (
        "ce week-end", "no fim de semana", "el fin de semana", "mwishoni mwa wiki"
    ),
    "No admission is in progress on the chart (no current encounter), so the window used "
    "instead is the last %(days)s days:": (
        "Aucune hospitalisation n'est en cours dans le dossier (pas de séjour en cours) ; la "
        "fenêtre utilisée à la place est celle des %(days)s derniers jours :",
        "Nenhuma internação está em curso no prontuário (nenhum atendimento atual); a janela "
        "usada em seu lugar são os últimos %(days)s dias:",
        "No hay ningún ingreso en curso en la historia clínica (ningún encuentro actual); la "
        "ventana usada en su lugar son los últimos %(days)s días:",
        "Hakuna kulazwa kunakoendelea kwenye rekodi (hakuna ziara ya sasa), kwa hivyo kipindi "
        "kilichotumika badala yake ni siku %(days)s zilizopita:",
    ),
    # a dose change of a drug on her list (tools/writes/dose_change.py)
    "%(drug)s is not on the active medication list, so no dose change was prepared; to start "
    "it, order it with its dose.": (
        "%(drug)s ne figure pas dans la liste des traitements actifs : aucun changement de dose "
        "n'a été préparé ; pour le débuter, prescrivez-le avec sa dose.",
        "%(drug)s não está na lista de medicamentos ativos, então nenhuma mudança de dose foi "
        "preparada; para iniciá-lo, prescreva-o com a dose.",
        "%(drug)s no está en la lista de medicamentos activos, así que no se preparó ningún "
        "cambio de dosis; para iniciarlo, prescríbalo con su dosis.",
        "%(drug)s haiko kwenye orodha ya dawa zinazotumika, kwa hivyo hakuna mabadiliko ya "
        "dozi yaliyoandaliwa; ili kuianza, iagize pamoja na dozi yake.",
    ),
    "%(drug)s is on the active list more than once, so no dose change was prepared: which "
    "order changes?": (
        "%(drug)s figure plusieurs fois dans la liste des traitements actifs : aucun changement "
        "de dose n'a été préparé. Quelle prescription change ?",
        "%(drug)s aparece mais de uma vez na lista de medicamentos ativos, então nenhuma mudança "
        "de dose foi preparada: qual prescrição muda?",
        "%(drug)s figura más de una vez en la lista de medicamentos activos, así que no se "
        "preparó ningún cambio de dosis: ¿qué orden cambia?",
        "%(drug)s iko kwenye orodha ya dawa zinazotumika zaidi ya mara moja, kwa hivyo hakuna "
        "mabadiliko ya dozi yaliyoandaliwa: ni agizo lipi linabadilika?",
    ),
    "overnight (since %(time)s yesterday)": (
        "cette nuit (depuis hier %(time)s)",
        "esta noite (desde ontem às %(time)s)",
        "anoche (desde ayer a las %(time)s)",
        "usiku uliopita (tangu jana saa %(time)s)",
    ),
    "since this morning (%(time)s)": (
        "depuis ce matin (%(time)s)",
        "desde esta manhã (%(time)s)",
        "desde esta mañana (%(time)s)",
        "tangu asubuhi ya leo (saa %(time)s)",
    ),
    "in the last shift (the last %(n)s h)": (
        "pendant la dernière garde (les %(n)s dernières h)",
        "no último plantão (as últimas %(n)s h)",
        "en el último turno (las últimas %(n)s h)",
        "katika zamu iliyopita (saa %(n)s zilizopita)",
    ),
    "in the last hour": (
        "au cours de la dernière heure",
        "na última hora",
        "en la última hora",
        "katika saa moja iliyopita",
    ),
    "in the last %(n)s hours": (
        "au cours des %(n)s dernières heures",
        "nas últimas %(n)s horas",
        "en las últimas %(n)s horas",
        "katika saa %(n)s zilizopita",
    ),
    "in the last %(n)s days": (
        "au cours des %(n)s derniers jours",
        "nos últimos %(n)s dias",
        "en los últimos %(n)s días",
        "katika siku %(n)s zilizopita",
    ),
    "under %(value)s %(unit)s": (
        "inférieure à %(value)s %(unit)s",
        "abaixo de %(value)s %(unit)s",
        "por debajo de %(value)s %(unit)s",
        "chini ya %(value)s %(unit)s",
    ),
    "at or under %(value)s %(unit)s": (
        "inférieure ou égale à %(value)s %(unit)s",
        "igual ou abaixo de %(value)s %(unit)s",
        "igual o por debajo de %(value)s %(unit)s",
        "sawa na au chini ya %(value)s %(unit)s",
    ),
    "over %(value)s %(unit)s": (
        "supérieure à %(value)s %(unit)s",
        "acima de %(value)s %(unit)s",
        "por encima de %(value)s %(unit)s",
        "zaidi ya %(value)s %(unit)s",
    ),
    "at or over %(value)s %(unit)s": (
        "supérieure ou égale à %(value)s %(unit)s",
        "igual ou acima de %(value)s %(unit)s",
        "igual o por encima de %(value)s %(unit)s",
        "sawa na au zaidi ya %(value)s %(unit)s",
    ),
    "time not recorded": (
        "heure non enregistrée",
        "hora não registrada",
        "hora no registrada",
        "saa haijarekodiwa",
    ),
    "%(value)s at %(when)s": (
        "%(value)s à %(when)s",
        "%(value)s às %(when)s",
        "%(value)s a las %(when)s",
        "%(value)s saa %(when)s",
    ),
    " and %(n)s more": (" et %(n)s de plus", " e mais %(n)s", " y %(n)s más", " na nyingine %(n)s"),
    "%(n)s value %(limit)s %(window)s (of %(read)s read): %(listed)s%(more)s.%(tail)s": (
        "%(n)s valeur %(limit)s %(window)s (sur %(read)s lues) : %(listed)s%(more)s.%(tail)s",
        "%(n)s valor %(limit)s %(window)s (de %(read)s lidos): %(listed)s%(more)s.%(tail)s",
        "%(n)s valor %(limit)s %(window)s (de %(read)s leídos): %(listed)s%(more)s.%(tail)s",
        "Thamani %(n)s %(limit)s %(window)s (kati ya %(read)s zilizosomwa): "
        "%(listed)s%(more)s.%(tail)s",
    ),
    "%(n)s values %(limit)s %(window)s (of %(read)s read): %(listed)s%(more)s.%(tail)s": (
        "%(n)s valeurs %(limit)s %(window)s (sur %(read)s lues) : %(listed)s%(more)s.%(tail)s",
        "%(n)s valores %(limit)s %(window)s (de %(read)s lidos): %(listed)s%(more)s.%(tail)s",
        "%(n)s valores %(limit)s %(window)s (de %(read)s leídos): %(listed)s%(more)s.%(tail)s",
        "Thamani %(n)s %(limit)s %(window)s (kati ya %(read)s zilizosomwa): "
        "%(listed)s%(more)s.%(tail)s",
    ),
    "None %(limit)s %(window)s (%(n)s value, latest %(latest)s at %(when)s).%(tail)s": (
        "Aucune valeur %(limit)s %(window)s (%(n)s valeur, la dernière %(latest)s à %(when)s)."
        "%(tail)s",
        "Nenhum valor %(limit)s %(window)s (%(n)s valor, o último %(latest)s às %(when)s).%(tail)s",
        "Ningún valor %(limit)s %(window)s (%(n)s valor, el último %(latest)s a las %(when)s)."
        "%(tail)s",
        "Hakuna thamani %(limit)s %(window)s (thamani %(n)s, ya mwisho %(latest)s saa %(when)s)."
        "%(tail)s",
    ),
    "None %(limit)s %(window)s (%(n)s values, latest %(latest)s at %(when)s).%(tail)s": (
        "Aucune valeur %(limit)s %(window)s (%(n)s valeurs, la dernière %(latest)s à %(when)s)."
        "%(tail)s",
        "Nenhum valor %(limit)s %(window)s (%(n)s valores, o último %(latest)s às %(when)s)."
        "%(tail)s",
        "Ningún valor %(limit)s %(window)s (%(n)s valores, el último %(latest)s a las %(when)s)."
        "%(tail)s",
        "Hakuna thamani %(limit)s %(window)s (thamani %(n)s, ya mwisho %(latest)s saa %(when)s)."
        "%(tail)s",
    ),
    " (%(n)s result in a unit that cannot be compared were not read.)": (
        " (%(n)s résultat dans une unité non comparable n'a pas été lu.)",
        " (%(n)s resultado em unidade não comparável não foi lido.)",
        " (%(n)s resultado en una unidad no comparable no se leyó.)",
        " (matokeo %(n)s katika kipimo kisicholinganishwa hayakusomwa.)",
    ),
    " (%(n)s results in a unit that cannot be compared were not read.)": (
        " (%(n)s résultats dans une unité non comparable n'ont pas été lus.)",
        " (%(n)s resultados em unidade não comparável não foram lidos.)",
        " (%(n)s resultados en una unidad no comparable no se leyeron.)",
        " (matokeo %(n)s katika kipimo kisicholinganishwa hayakusomwa.)",
    ),
    "No %(lab)s value %(window)s could be compared with %(value)s.%(tail)s": (
        "Aucune valeur %(window)s n'a pu être comparée à %(value)s (%(lab)s).%(tail)s",
        "Nenhum valor de %(lab)s %(window)s pôde ser comparado com %(value)s.%(tail)s",
        "Ningún valor de %(lab)s %(window)s pudo compararse con %(value)s.%(tail)s",
        "Hakuna thamani ya %(lab)s %(window)s iliyoweza kulinganishwa na %(value)s.%(tail)s",
    ),
    "%(value)s %(unit)s cannot be compared with %(lab)s results (charted in %(charted)s; "
    "no conversion from %(unit)s is known).": (
        "%(value)s %(unit)s ne peut pas être comparé aux résultats (%(lab)s, enregistrés en "
        "%(charted)s ; aucune conversion depuis %(unit)s n'est connue).",
        "%(value)s %(unit)s não pode ser comparado com os resultados de %(lab)s (registrados em "
        "%(charted)s; nenhuma conversão de %(unit)s é conhecida).",
        "%(value)s %(unit)s no se puede comparar con los resultados de %(lab)s (registrados en "
        "%(charted)s; no se conoce ninguna conversión desde %(unit)s).",
        "%(value)s %(unit)s haiwezi kulinganishwa na matokeo ya %(lab)s (yameandikwa kwa "
        "%(charted)s; hakuna ubadilishaji unaojulikana kutoka %(unit)s).",
    ),
    " (%(value)s %(unit)s as charted)": (
        " (%(value)s %(unit)s tel qu'enregistré)",
        " (%(value)s %(unit)s como registrado)",
        " (%(value)s %(unit)s como se registró)",
        " (%(value)s %(unit)s kama ilivyoandikwa)",
    ),
    " Not in the mean: %(n)s result in a unit not convertible.": (
        " Hors moyenne : %(n)s résultat dans une unité non convertible.",
        " Fora da média: %(n)s resultado em unidade não conversível.",
        " Fuera de la media: %(n)s resultado en una unidad no convertible.",
        " Hayamo kwenye wastani: matokeo %(n)s katika kipimo kisichobadilishika.",
    ),
    " Not in the mean: %(n)s results in a unit not convertible.": (
        " Hors moyenne : %(n)s résultats dans une unité non convertible.",
        " Fora da média: %(n)s resultados em unidade não conversível.",
        " Fuera de la media: %(n)s resultados en una unidad no convertible.",
        " Hayamo kwenye wastani: matokeo %(n)s katika kipimo kisichobadilishika.",
    ),
    "You said %(said)s kg; no weight is on file, so no dose here is worked out from a weight. "
    "Record the weight to dose by it.": (
        "Vous avez indiqué %(said)s kg ; aucun poids n'est au dossier, donc aucune dose n'est "
        "calculée ici à partir d'un poids. Enregistrez le poids pour doser selon lui.",
        "Você informou %(said)s kg; nenhum peso está no prontuário, então nenhuma dose aqui é "
        "calculada pelo peso. Registre o peso para dosar por ele.",
        "Indicó %(said)s kg; no hay ningún peso en la historia, así que aquí ninguna dosis se "
        "calcula por peso. Registre el peso para dosificar según él.",
        "Ulisema kilo %(said)s; hakuna uzito kwenye faili, kwa hiyo hakuna dozi hapa "
        "iliyokokotolewa kwa uzito. Rekodi uzito ili kutoa dozi kwa huo.",
    ),
    "You said %(said)s kg; the chart's latest weight is %(kg)s kg (%(date)s), and any dose here "
    "worked out by weight uses it. Record the new weight to dose by it.": (
        "Vous avez indiqué %(said)s kg ; le dernier poids du dossier est %(kg)s kg (%(date)s), et "
        "toute dose calculée ici selon le poids l'utilise. Enregistrez le nouveau poids pour "
        "doser selon lui.",
        "Você informou %(said)s kg; o último peso do prontuário é %(kg)s kg (%(date)s), e toda "
        "dose aqui calculada pelo peso o usa. Registre o novo peso para dosar por ele.",
        "Indicó %(said)s kg; el último peso de la historia es %(kg)s kg (%(date)s), y toda dosis "
        "calculada aquí por peso lo usa. Registre el nuevo peso para dosificar según él.",
        "Ulisema kilo %(said)s; uzito wa mwisho kwenye faili ni kilo %(kg)s (%(date)s), na dozi "
        "yoyote hapa iliyokokotolewa kwa uzito inautumia. Rekodi uzito mpya ili kutoa dozi kwa "
        "huo.",
    ),
    "on file": ("au dossier", "no prontuário", "en la historia", "kwenye faili"),
    "in the newest results read (from %(start)s; older ones not read)": (
        "parmi les résultats les plus récents lus (depuis le %(start)s ; les plus anciens non lus)",
        "nos resultados mais recentes lidos (desde %(start)s; os mais antigos não lidos)",
        "en los resultados más recientes leídos (desde %(start)s; los más antiguos no leídos)",
        "katika matokeo mapya yaliyosomwa (tangu %(start)s; ya zamani hayakusomwa)",
    ),
    "Mean %(lab)s %(window)s: %(value)s %(unit)s%(also)s (mean of %(n)s result).%(tail)s": (
        "Moyenne %(window)s (%(lab)s) : %(value)s %(unit)s%(also)s (moyenne de %(n)s résultat)."
        "%(tail)s",
        "Média de %(lab)s %(window)s: %(value)s %(unit)s%(also)s (média de %(n)s resultado)."
        "%(tail)s",
        "Media de %(lab)s %(window)s: %(value)s %(unit)s%(also)s (media de %(n)s resultado)."
        "%(tail)s",
        "Wastani wa %(lab)s %(window)s: %(value)s %(unit)s%(also)s (wastani wa matokeo %(n)s)."
        "%(tail)s",
    ),
    "Mean %(lab)s %(window)s: %(value)s %(unit)s%(also)s (mean of %(n)s results).%(tail)s": (
        "Moyenne %(window)s (%(lab)s) : %(value)s %(unit)s%(also)s (moyenne de %(n)s résultats)."
        "%(tail)s",
        "Média de %(lab)s %(window)s: %(value)s %(unit)s%(also)s (média de %(n)s resultados)."
        "%(tail)s",
        "Media de %(lab)s %(window)s: %(value)s %(unit)s%(also)s (media de %(n)s resultados)."
        "%(tail)s",
        "Wastani wa %(lab)s %(window)s: %(value)s %(unit)s%(also)s (wastani wa matokeo %(n)s)."
        "%(tail)s",
    ),
    "No blood pressure recorded %(window)s, and none before it in the chart.": (
        "Aucune tension artérielle enregistrée %(window)s, ni avant dans le dossier.",
        "Nenhuma pressão arterial registrada %(window)s, nem antes no prontuário.",
        "Ninguna presión arterial registrada %(window)s, ni antes en la historia.",
        "Hakuna shinikizo la damu lililorekodiwa %(window)s, wala kabla ya hapo kwenye faili.",
    ),
    "No blood pressure recorded %(window)s. The latest before it: %(bp)s mmHg at %(when)s.": (
        "Aucune tension artérielle enregistrée %(window)s. La dernière avant : %(bp)s mmHg "
        "à %(when)s.",
        "Nenhuma pressão arterial registrada %(window)s. A última antes disso: %(bp)s mmHg "
        "às %(when)s.",
        "Ninguna presión arterial registrada %(window)s. La última antes: %(bp)s mmHg "
        "a las %(when)s.",
        "Hakuna shinikizo la damu lililorekodiwa %(window)s. La mwisho kabla ya hapo: %(bp)s mmHg "
        "saa %(when)s.",
    ),
    "Mean blood pressure %(window)s: %(bp)s mmHg, the mean of %(n)s reading.": (
        "Tension artérielle moyenne %(window)s : %(bp)s mmHg, moyenne de %(n)s mesure.",
        "Pressão arterial média %(window)s: %(bp)s mmHg, média de %(n)s medição.",
        "Presión arterial media %(window)s: %(bp)s mmHg, media de %(n)s medición.",
        "Wastani wa shinikizo la damu %(window)s: %(bp)s mmHg, wastani wa kipimo %(n)s.",
    ),
    "Mean blood pressure %(window)s: %(bp)s mmHg, the mean of %(n)s readings.": (
        "Tension artérielle moyenne %(window)s : %(bp)s mmHg, moyenne de %(n)s mesures.",
        "Pressão arterial média %(window)s: %(bp)s mmHg, média de %(n)s medições.",
        "Presión arterial media %(window)s: %(bp)s mmHg, media de %(n)s mediciones.",
        "Wastani wa shinikizo la damu %(window)s: %(bp)s mmHg, wastani wa vipimo %(n)s.",
    ),
    # the highest or the lowest result of a window (tools/chart/windowanswers.py)
    "Highest %(lab)s %(window)s: %(value)s %(unit)s at %(when)s (the only result).": (
        "Valeur la plus haute %(window)s (%(lab)s) : %(value)s %(unit)s à %(when)s (seul "
        "résultat).",
        "Valor mais alto de %(lab)s %(window)s: %(value)s %(unit)s às %(when)s (único resultado).",
        "Valor más alto de %(lab)s %(window)s: %(value)s %(unit)s a las %(when)s (único "
        "resultado).",
        "Thamani ya juu zaidi ya %(lab)s %(window)s: %(value)s %(unit)s saa %(when)s (tokeo "
        "pekee).",
    ),
    "Highest %(lab)s %(window)s: %(value)s %(unit)s at %(when)s (of %(n)s results).": (
        "Valeur la plus haute %(window)s (%(lab)s) : %(value)s %(unit)s à %(when)s "
        "(sur %(n)s résultats).",
        "Valor mais alto de %(lab)s %(window)s: %(value)s %(unit)s às %(when)s "
        "(de %(n)s resultados).",
        "Valor más alto de %(lab)s %(window)s: %(value)s %(unit)s a las %(when)s "
        "(de %(n)s resultados).",
        "Thamani ya juu zaidi ya %(lab)s %(window)s: %(value)s %(unit)s saa %(when)s "
        "(kati ya matokeo %(n)s).",
    ),
    "Lowest %(lab)s %(window)s: %(value)s %(unit)s at %(when)s (the only result).": (
        "Valeur la plus basse %(window)s (%(lab)s) : %(value)s %(unit)s à %(when)s (seul "
        "résultat).",
        "Valor mais baixo de %(lab)s %(window)s: %(value)s %(unit)s às %(when)s (único resultado).",
        "Valor más bajo de %(lab)s %(window)s: %(value)s %(unit)s a las %(when)s (único "
        "resultado).",
        "Thamani ya chini zaidi ya %(lab)s %(window)s: %(value)s %(unit)s saa %(when)s (tokeo "
        "pekee).",
    ),
    "Lowest %(lab)s %(window)s: %(value)s %(unit)s at %(when)s (of %(n)s results).": (
        "Valeur la plus basse %(window)s (%(lab)s) : %(value)s %(unit)s à %(when)s "
        "(sur %(n)s résultats).",
        "Valor mais baixo de %(lab)s %(window)s: %(value)s %(unit)s às %(when)s "
        "(de %(n)s resultados).",
        "Valor más bajo de %(lab)s %(window)s: %(value)s %(unit)s a las %(when)s "
        "(de %(n)s resultados).",
        "Thamani ya chini zaidi ya %(lab)s %(window)s: %(value)s %(unit)s saa %(when)s "
        "(kati ya matokeo %(n)s).",
    ),
    "Highest blood pressure %(window)s (by systolic): %(bp)s mmHg at %(when)s (the only "
    "reading).": (
        "Tension artérielle la plus haute %(window)s (par la systolique) : %(bp)s mmHg à %(when)s "
        "(seule mesure).",
        "Pressão arterial mais alta %(window)s (pela sistólica): %(bp)s mmHg às %(when)s "
        "(única medição).",
        "Presión arterial más alta %(window)s (por la sistólica): %(bp)s mmHg a las %(when)s "
        "(única medición).",
        "Shinikizo la damu la juu zaidi %(window)s (kwa sistoli): %(bp)s mmHg saa %(when)s "
        "(kipimo pekee).",
    ),
    "Highest blood pressure %(window)s (by systolic): %(bp)s mmHg at %(when)s (of %(n)s "
    "readings).": (
        "Tension artérielle la plus haute %(window)s (par la systolique) : %(bp)s mmHg à %(when)s "
        "(sur %(n)s mesures).",
        "Pressão arterial mais alta %(window)s (pela sistólica): %(bp)s mmHg às %(when)s "
        "(de %(n)s medições).",
        "Presión arterial más alta %(window)s (por la sistólica): %(bp)s mmHg a las %(when)s "
        "(de %(n)s mediciones).",
        "Shinikizo la damu la juu zaidi %(window)s (kwa sistoli): %(bp)s mmHg saa %(when)s "
        "(kati ya vipimo %(n)s).",
    ),
    "Lowest blood pressure %(window)s (by systolic): %(bp)s mmHg at %(when)s (the only reading).": (
        "Tension artérielle la plus basse %(window)s (par la systolique) : %(bp)s mmHg à %(when)s "
        "(seule mesure).",
        "Pressão arterial mais baixa %(window)s (pela sistólica): %(bp)s mmHg às %(when)s "
        "(única medição).",
        "Presión arterial más baja %(window)s (por la sistólica): %(bp)s mmHg a las %(when)s "
        "(única medición).",
        "Shinikizo la damu la chini zaidi %(window)s (kwa sistoli): %(bp)s mmHg saa %(when)s "
        "(kipimo pekee).",
    ),
    "Lowest blood pressure %(window)s (by systolic): %(bp)s mmHg at %(when)s (of %(n)s "
    "readings).": (
        "Tension artérielle la plus basse %(window)s (par la systolique) : %(bp)s mmHg à %(when)s "
        "(sur %(n)s mesures).",
        "Pressão arterial mais baixa %(window)s (pela sistólica): %(bp)s mmHg às %(when)s "
        "(de %(n)s medições).",
        "Presión arterial más baja %(window)s (por la sistólica): %(bp)s mmHg a las %(when)s "
        "(de %(n)s mediciones).",
        "Shinikizo la damu la chini zaidi %(window)s (kwa sistoli): %(bp)s mmHg saa %(when)s "
        "(kati ya vipimo %(n)s).",
    ),
    "systolic %(limit)s %(window)s": (
        "pression systolique %(limit)s %(window)s",
        "pressão sistólica %(limit)s %(window)s",
        "presión sistólica %(limit)s %(window)s",
        "shinikizo la juu %(limit)s %(window)s",
    ),
    "%(n)s reading with %(limit)s (of %(read)s): %(listed)s.": (
        "%(n)s mesure avec %(limit)s (sur %(read)s) : %(listed)s.",
        "%(n)s medição com %(limit)s (de %(read)s): %(listed)s.",
        "%(n)s medición con %(limit)s (de %(read)s): %(listed)s.",
        "Kipimo %(n)s chenye %(limit)s (kati ya %(read)s): %(listed)s.",
    ),
    "%(n)s readings with %(limit)s (of %(read)s): %(listed)s.": (
        "%(n)s mesures avec %(limit)s (sur %(read)s) : %(listed)s.",
        "%(n)s medições com %(limit)s (de %(read)s): %(listed)s.",
        "%(n)s mediciones con %(limit)s (de %(read)s): %(listed)s.",
        "Vipimo %(n)s vyenye %(limit)s (kati ya %(read)s): %(listed)s.",
    ),
    "None with %(limit)s (%(n)s reading, latest %(bp)s at %(when)s).": (
        "Aucune mesure avec %(limit)s (%(n)s mesure, la dernière %(bp)s à %(when)s).",
        "Nenhuma medição com %(limit)s (%(n)s medição, a última %(bp)s às %(when)s).",
        "Ninguna medición con %(limit)s (%(n)s medición, la última %(bp)s a las %(when)s).",
        "Hakuna kipimo chenye %(limit)s (kipimo %(n)s, cha mwisho %(bp)s saa %(when)s).",
    ),
    "None with %(limit)s (%(n)s readings, latest %(bp)s at %(when)s).": (
        "Aucune mesure avec %(limit)s (%(n)s mesures, la dernière %(bp)s à %(when)s).",
        "Nenhuma medição com %(limit)s (%(n)s medições, a última %(bp)s às %(when)s).",
        "Ninguna medición con %(limit)s (%(n)s mediciones, la última %(bp)s a las %(when)s).",
        "Hakuna kipimo chenye %(limit)s (vipimo %(n)s, cha mwisho %(bp)s saa %(when)s).",
    ),
    "%(n)s reading %(window)s: %(listed)s.": (
        "%(n)s mesure %(window)s : %(listed)s.",
        "%(n)s medição %(window)s: %(listed)s.",
        "%(n)s medición %(window)s: %(listed)s.",
        "Kipimo %(n)s %(window)s: %(listed)s.",
    ),
    "%(n)s readings %(window)s: %(listed)s.": (
        "%(n)s mesures %(window)s : %(listed)s.",
        "%(n)s medições %(window)s: %(listed)s.",
        "%(n)s mediciones %(window)s: %(listed)s.",
        "Vipimo %(n)s %(window)s: %(listed)s.",
    ),
    "%(value)s at %(when)s (%(specimen)s, LOINC %(code)s)": (
        "%(value)s le %(when)s (%(specimen)s, LOINC %(code)s)",
        "%(value)s em %(when)s (%(specimen)s, LOINC %(code)s)",
        "%(value)s el %(when)s (%(specimen)s, LOINC %(code)s)",
        "%(value)s tarehe %(when)s (%(specimen)s, LOINC %(code)s)",
    ),
    "%(window)s (from %(start)s)": (
        "%(window)s (depuis le %(start)s)",
        "%(window)s (desde %(start)s)",
        "%(window)s (desde el %(start)s)",
        "%(window)s (tangu %(start)s)",
    ),
    "%(lab)s %(span)s: %(n)s result; the latest %(value)s at %(when)s.": (
        "%(lab)s %(span)s : %(n)s résultat ; le dernier %(value)s le %(when)s.",
        "%(lab)s %(span)s: %(n)s resultado; o último %(value)s em %(when)s.",
        "%(lab)s %(span)s: %(n)s resultado; el último %(value)s el %(when)s.",
        "%(lab)s %(span)s: matokeo %(n)s; ya mwisho %(value)s tarehe %(when)s.",
    ),
    "%(lab)s %(span)s: %(n)s results; the latest %(value)s at %(when)s.": (
        "%(lab)s %(span)s : %(n)s résultats ; le dernier %(value)s le %(when)s.",
        "%(lab)s %(span)s: %(n)s resultados; o último %(value)s em %(when)s.",
        "%(lab)s %(span)s: %(n)s resultados; el último %(value)s el %(when)s.",
        "%(lab)s %(span)s: matokeo %(n)s; ya mwisho %(value)s tarehe %(when)s.",
    ),
    "No %(lab)s result %(span)s. The last one before it: %(line)s.": (
        "Aucun résultat (%(lab)s) %(span)s. Le dernier avant : %(line)s.",
        "Nenhum resultado de %(lab)s %(span)s. O último antes disso: %(line)s.",
        "Ningún resultado de %(lab)s %(span)s. El último antes: %(line)s.",
        "Hakuna matokeo ya %(lab)s %(span)s. Ya mwisho kabla ya hapo: %(line)s.",
    ),
    "No %(lab)s result %(span)s, and none in the chart before it (searched LOINC %(codes)s).": (
        "Aucun résultat (%(lab)s) %(span)s, ni avant dans le dossier (LOINC recherchés : "
        "%(codes)s).",
        "Nenhum resultado de %(lab)s %(span)s, nem antes no prontuário (LOINC pesquisados: "
        "%(codes)s).",
        "Ningún resultado de %(lab)s %(span)s, ni antes en la historia (LOINC buscados: "
        "%(codes)s).",
        "Hakuna matokeo ya %(lab)s %(span)s, wala kabla ya hapo kwenye faili (LOINC "
        "zilizotafutwa: %(codes)s).",
    ),
    # medication reconciliation and switch (tools/writes/reconciliation.py, switch.py)
    "Medication list: %(names)s.": (
        "Liste des médicaments : %(names)s.",
        "Lista de medicamentos: %(names)s.",
        "Lista de medicamentos: %(names)s.",
        "Orodha ya dawa: %(names)s.",
    ),
    "Medication list: none active.": (
        "Liste des médicaments : aucun actif.",
        "Lista de medicamentos: nenhum ativo.",
        "Lista de medicamentos: ninguno activo.",
        "Orodha ya dawa: hakuna inayotumika.",
    ),
    "Already on the list: %(name)s (%(listed)s).": (
        "Déjà sur la liste : %(name)s (%(listed)s).",
        "Já na lista: %(name)s (%(listed)s).",
        "Ya en la lista: %(name)s (%(listed)s).",
        "Tayari kwenye orodha: %(name)s (%(listed)s).",
    ),
    "Dose differs from the list: the order says %(listed)s mg, the patient takes %(said)s mg by "
    "report — confirm which is right": (
        "La dose diffère de la liste : l'ordonnance indique %(listed)s mg, le patient prend "
        "%(said)s mg selon ce qui est rapporté — confirmez laquelle est juste",
        "A dose difere da lista: a prescrição indica %(listed)s mg, o paciente toma %(said)s mg "
        "segundo o relato — confirme qual está correta",
        "La dosis difiere de la lista: la orden indica %(listed)s mg, el paciente toma %(said)s mg "
        "según lo referido — confirme cuál es la correcta",
        "Dozi inatofautiana na orodha: agizo linasema %(listed)s mg, mgonjwa anatumia %(said)s mg "
        "kwa maelezo — thibitisha ipi ni sahihi",
    ),
    "No patient in context: %(drugs)s was not checked against a chart.": (
        "Aucun patient en contexte : %(drugs)s n'a été vérifié contre aucun dossier.",
        "Nenhum paciente em contexto: %(drugs)s não foi verificado em nenhum prontuário.",
        "Ningún paciente en contexto: %(drugs)s no se verificó contra ninguna historia clínica.",
        "Hakuna mgonjwa katika muktadha: %(drugs)s haikukaguliwa dhidi ya faili lolote.",
    ),
    "The search named %(drugs)s; checked against this patient's chart as well:": (
        "La recherche nomme %(drugs)s ; vérifié aussi contre le dossier de ce patient :",
        "A pesquisa cita %(drugs)s; verificado também no prontuário deste paciente:",
        "La búsqueda nombra %(drugs)s; verificado también contra la historia de este paciente:",
        "Utafutaji umetaja %(drugs)s; imekaguliwa pia dhidi ya faili la mgonjwa huyu:",
    ),
    "Said to be stopped but not on the list: %(name)s; nothing recorded.": (
        "Dit arrêté mais absent de la liste : %(name)s ; rien n'est enregistré.",
        "Dito suspenso, mas fora da lista: %(name)s; nada registrado.",
        "Se dice suspendido pero no está en la lista: %(name)s; no se registra nada.",
        "Imesemekana imesitishwa lakini haipo kwenye orodha: %(name)s; hakuna kilichorekodiwa.",
    ),
    'Not recorded: "%(words)s" could not be identified as one drug; please name it.': (
        "Non enregistré : « %(words)s » n'a pas pu être identifié comme un médicament ; "
        "merci de le nommer.",
        'Não registrado: "%(words)s" não pôde ser identificado como um medicamento; '
        "indique o nome.",
        'No registrado: "%(words)s" no pudo identificarse como un medicamento; indique su nombre.',
        'Haijarekodiwa: "%(words)s" haikuweza kutambuliwa kama dawa moja; tafadhali itaje.',
    ),
    "No medication was named, so nothing was reconciled or recorded.": (
        "Aucun médicament n'a été nommé : rien n'a été rapproché ni enregistré.",
        "Nenhum medicamento foi nomeado, então nada foi conciliado nem registrado.",
        "No se nombró ningún medicamento, así que no se concilió ni registró nada.",
        "Hakuna dawa iliyotajwa, kwa hiyo hakuna kilicholinganishwa wala kurekodiwa.",
    ),
    "Nothing to record.": (
        "Rien à enregistrer.",
        "Nada a registrar.",
        "Nada que registrar.",
        "Hakuna cha kurekodi.",
    ),
    "Nothing is recorded until you approve each card.": (
        "Rien n'est enregistré avant que vous validiez chaque carte.",
        "Nada é registrado até que você aprove cada cartão.",
        "No se registra nada hasta que apruebe cada tarjeta.",
        "Hakuna kinachorekodiwa hadi uidhinishe kila kadi.",
    ),
    "Switch to %(drug)s %(dose)s %(frequency)s.": (
        "Relais par %(drug)s %(dose)s %(frequency)s.",
        "Troca para %(drug)s %(dose)s %(frequency)s.",
        "Cambio a %(drug)s %(dose)s %(frequency)s.",
        "Badilisha kwenda %(drug)s %(dose)s %(frequency)s.",
    ),
    "Replaces %(drug)s (%(how)s).": (
        "Remplace %(drug)s (%(how)s).",
        "Substitui %(drug)s (%(how)s).",
        "Sustituye a %(drug)s (%(how)s).",
        "Inachukua nafasi ya %(drug)s (%(how)s).",
    ),
    "No order is proposed to stop: %(how)s.": (
        "Aucune prescription n'est proposée à l'arrêt : %(how)s.",
        "Nenhuma prescrição é proposta para suspender: %(how)s.",
        "No se propone suspender ninguna orden: %(how)s.",
        "Hakuna agizo linalopendekezwa kusitishwa: %(how)s.",
    ),
    "No order is proposed to stop: %(how)s. Which order does it replace?": (
        "Aucune prescription n'est proposée à l'arrêt : %(how)s. Laquelle remplace-t-il ?",
        "Nenhuma prescrição é proposta para suspender: %(how)s. Qual prescrição ele substitui?",
        "No se propone suspender ninguna orden: %(how)s. ¿Qué orden sustituye?",
        "Hakuna agizo linalopendekezwa kusitishwa: %(how)s. Inachukua nafasi ya agizo lipi?",
    ),
    "No order is proposed to stop: %(how)s: %(listed)s. Which order does it replace?": (
        "Aucune prescription n'est proposée à l'arrêt : %(how)s : %(listed)s. "
        "Laquelle remplace-t-il ?",
        "Nenhuma prescrição é proposta para suspender: %(how)s: %(listed)s. "
        "Qual prescrição ele substitui?",
        "No se propone suspender ninguna orden: %(how)s: %(listed)s. ¿Qué orden sustituye?",
        "Hakuna agizo linalopendekezwa kusitishwa: %(how)s: %(listed)s. "
        "Inachukua nafasi ya agizo lipi?",
    ),
    # a plan's or order set's one line per card (tools/writes/ward_orders.py brief)
    "Proposed, awaiting your approval (nothing written yet): %(title)s.": (
        "Proposé, en attente de votre validation (rien n'est encore écrit) : %(title)s.",
        "Proposto, aguardando sua aprovação (nada gravado ainda): %(title)s.",
        "Propuesto, pendiente de su aprobación (aún no se ha escrito nada): %(title)s.",
        "Imependekezwa, inasubiri idhini yako (hakuna kilichoandikwa bado): %(title)s.",
    ),
    # care gaps (tools/writes/caregaps.py); the checks' labels and details are the programme
    # file's, as written
    "DUE": ("À FAIRE", "PENDENTE", "PENDIENTE", "INADAIWA"),
    "ABOVE TARGET": (
        "AU-DESSUS DE LA CIBLE",
        "ACIMA DA META",
        "POR ENCIMA DEL OBJETIVO",
        "JUU YA LENGO",
    ),
    "up to date": ("à jour", "em dia", "al día", "imesasishwa"),
    "could not be checked": (
        "n'a pas pu être vérifié",
        "não pôde ser verificado",
        "no se pudo verificar",
        "haikuweza kukaguliwa",
    ),
    "not applicable": ("sans objet", "não se aplica", "no aplica", "haihusiki"),
    "%(title)s (%(open)s open of %(n)s; source: %(cited)s):": (
        "%(title)s (%(open)s en attente sur %(n)s ; source : %(cited)s) :",
        "%(title)s (%(open)s em aberto de %(n)s; fonte: %(cited)s):",
        "%(title)s (%(open)s de %(n)s pendientes; fuente: %(cited)s):",
        "%(title)s (%(open)s wazi kati ya %(n)s; chanzo: %(cited)s):",
    ),
    "Could not be read: %(unread)s; gaps that depend on them are not shown as met.": (
        "Illisible : %(unread)s ; les écarts qui en dépendent ne sont pas présentés comme remplis.",
        "Não foi possível ler: %(unread)s; as lacunas que dependem deles não são mostradas "
        "como cumpridas.",
        "No se pudo leer: %(unread)s; las brechas que dependen de ello no se muestran como "
        "cumplidas.",
        "Haikuweza kusomwa: %(unread)s; mapengo yanayotegemea hayo hayaonyeshwi kama yametimizwa.",
    ),
    " (%(unread)s could not be read)": (
        " (%(unread)s illisible)",
        " (%(unread)s não pôde ser lido)",
        " (%(unread)s no se pudo leer)",
        " (%(unread)s haikuweza kusomwa)",
    ),
    "No care-gap programme applies: the chart holds none of the conditions this site's "
    "programmes cover (diabetes, hypertension, chronic kidney disease, warfarin)%(unread)s.": (
        "Aucun programme de suivi ne s'applique : le dossier ne contient aucune des affections "
        "que couvrent les programmes de ce site (diabète, hypertension, maladie rénale "
        "chronique, warfarine)%(unread)s.",
        "Nenhum programa de lacunas de cuidado se aplica: o prontuário não contém nenhuma das "
        "condições cobertas pelos programas deste serviço (diabetes, hipertensão, doença renal "
        "crônica, varfarina)%(unread)s.",
        "No se aplica ningún programa de brechas de atención: la historia no contiene ninguna de "
        "las condiciones que cubren los programas de este centro (diabetes, hipertensión, "
        "enfermedad renal crónica, warfarina)%(unread)s.",
        "Hakuna programu ya mapengo ya huduma inayohusika: faili halina hali yoyote kati ya "
        "zinazoshughulikiwa na programu za kituo hiki (kisukari, shinikizo la damu, ugonjwa sugu "
        "wa figo, warfarin)%(unread)s.",
    ),
    '%(n)s open gap(s); ask "order the overdue ones" to have each order proposed on its own '
    "card.": (
        "%(n)s écart(s) en attente ; demandez « prescrire les examens en retard » pour que chaque "
        "prescription soit proposée sur sa propre carte.",
        '%(n)s lacuna(s) em aberto; peça "solicitar os exames em atraso" para que cada pedido '
        "seja proposto em seu próprio cartão.",
        '%(n)s brecha(s) pendiente(s); pida "solicitar los exámenes pendientes" para que cada '
        "orden se proponga en su propia tarjeta.",
        'Mapengo %(n)s wazi; uliza "order the overdue ones" ili kila agizo lipendekezwe kwenye '
        "kadi yake.",
    ),
    "Nothing overdue that can be ordered here, so nothing was proposed.": (
        "Rien d'en retard qui puisse être prescrit ici : rien n'a été proposé.",
        "Nada em atraso que possa ser pedido aqui, então nada foi proposto.",
        "Nada atrasado que pueda pedirse aquí, así que no se propuso nada.",
        "Hakuna kilichochelewa kinachoweza kuagizwa hapa, kwa hiyo hakuna kilichopendekezwa.",
    ),
    "Overdue per the care-gap programmes, one card per order:": (
        "En retard selon les programmes de suivi, une carte par prescription :",
        "Em atraso segundo os programas de lacunas de cuidado, um cartão por pedido:",
        "Atrasado según los programas de brechas de atención, una tarjeta por orden:",
        "Vilivyochelewa kulingana na programu za mapengo ya huduma, kadi moja kwa kila agizo:",
    ),
    "Not ordered here: %(check)s (%(detail)s).": (
        "Non prescrit ici : %(check)s (%(detail)s).",
        "Não pedido aqui: %(check)s (%(detail)s).",
        "No se pide aquí: %(check)s (%(detail)s).",
        "Haijaagizwa hapa: %(check)s (%(detail)s).",
    ),
    "Could not be checked, so not ordered: %(check)s (%(detail)s).": (
        "Non vérifiable, donc non prescrit : %(check)s (%(detail)s).",
        "Não pôde ser verificado, então não foi pedido: %(check)s (%(detail)s).",
        "No se pudo verificar, así que no se pidió: %(check)s (%(detail)s).",
        "Haikuweza kukaguliwa, kwa hiyo haijaagizwa: %(check)s (%(detail)s).",
    ),
    # how a switch chose the order it replaces (tools/writes/switch.py replaced)
    "named by you (%(said)s)": (
        "nommée par vous (%(said)s)",
        "indicada por você (%(said)s)",
        "indicada por usted (%(said)s)",
        "imetajwa na wewe (%(said)s)",
    ),
    "%(said)s is not on the active list": (
        "%(said)s n'est pas sur la liste active",
        "%(said)s não está na lista ativa",
        "%(said)s no está en la lista activa",
        "%(said)s haipo kwenye orodha inayotumika",
    ),
    "%(drug)s is in no therapeutic group this site lists, so no order was chosen to stop": (
        "%(drug)s n'appartient à aucun groupe thérapeutique listé par ce site : aucune "
        "prescription n'a été choisie pour l'arrêt",
        "%(drug)s não pertence a nenhum grupo terapêutico listado por este serviço, então "
        "nenhuma prescrição foi escolhida para suspender",
        "%(drug)s no pertenece a ningún grupo terapéutico de la lista de este centro, así que no "
        "se eligió ninguna orden para suspender",
        "%(drug)s haimo katika kundi lolote la tiba linaloorodheshwa na kituo hiki, kwa hiyo "
        "hakuna agizo lililochaguliwa kusitishwa",
    ),
    "the active %(group)s order": (
        "la prescription active du groupe %(group)s",
        "a prescrição ativa do grupo %(group)s",
        "la orden activa del grupo %(group)s",
        "agizo linalotumika la kundi %(group)s",
    ),
    "the active %(group)s orders": (
        "les prescriptions actives du groupe %(group)s",
        "as prescrições ativas do grupo %(group)s",
        "las órdenes activas del grupo %(group)s",
        "maagizo yanayotumika ya kundi %(group)s",
    ),
    # peri-operative plans (tools/writes/periop.py); the resume and check wording and the
    # guideline are the table's own (tools/data), as written
    "Surgery on %(day)s; bleeding risk: high. Guideline: %(source)s.": (
        "Chirurgie le %(day)s ; risque hémorragique : élevé. Recommandation : %(source)s.",
        "Cirurgia em %(day)s; risco de sangramento: alto. Diretriz: %(source)s.",
        "Cirugía el %(day)s; riesgo de sangrado: alto. Guía: %(source)s.",
        "Upasuaji tarehe %(day)s; hatari ya kuvuja damu: kubwa. Mwongozo: %(source)s.",
    ),
    "Surgery on %(day)s; bleeding risk: low. Guideline: %(source)s.": (
        "Chirurgie le %(day)s ; risque hémorragique : faible. Recommandation : %(source)s.",
        "Cirurgia em %(day)s; risco de sangramento: baixo. Diretriz: %(source)s.",
        "Cirugía el %(day)s; riesgo de sangrado: bajo. Guía: %(source)s.",
        "Upasuaji tarehe %(day)s; hatari ya kuvuja damu: ndogo. Mwongozo: %(source)s.",
    ),
    "- %(drug)s: continue — %(resume)s.": (
        "- %(drug)s : poursuivre — %(resume)s.",
        "- %(drug)s: continuar — %(resume)s.",
        "- %(drug)s: continuar — %(resume)s.",
        "- %(drug)s: endelea — %(resume)s.",
    ),
    "- %(drug)s: the last dose for this surgery should have been %(last)s, which has passed "
    "(%(n)s full days without it are advised): hold it from today and agree with the surgeon "
    "whether to postpone or reverse; resume %(resume)s.": (
        "- %(drug)s : la dernière prise pour cette chirurgie aurait dû être %(last)s, date "
        "dépassée (%(n)s jours pleins sans le médicament sont recommandés) : le suspendre dès "
        "aujourd'hui et décider avec le chirurgien de reporter ou d'antagoniser ; reprise "
        "%(resume)s.",
        "- %(drug)s: a última dose para esta cirurgia deveria ter sido %(last)s, data já "
        "passada (%(n)s dias completos sem ele são recomendados): suspender a partir de hoje e "
        "decidir com o cirurgião se adia ou reverte; retomar %(resume)s.",
        "- %(drug)s: la última dosis para esta cirugía debía ser %(last)s, fecha ya pasada "
        "(se recomiendan %(n)s días completos sin él): suspenderlo desde hoy y acordar con el "
        "cirujano si se pospone o se revierte; reanudar %(resume)s.",
        "- %(drug)s: dozi ya mwisho kwa upasuaji huu ilipaswa kuwa %(last)s, tarehe "
        "imeshapita (siku kamili %(n)s bila dawa zinashauriwa): isimamishe kuanzia leo na "
        "mkubaliane na daktari wa upasuaji kuahirisha au kubatilisha athari; rejea %(resume)s.",
    ),
    "- %(drug)s: last dose %(last)s (%(n)s full days without it before surgery); resume "
    "%(resume)s.": (
        "- %(drug)s : dernière prise %(last)s (%(n)s jours pleins sans le médicament avant la "
        "chirurgie) ; reprise %(resume)s.",
        "- %(drug)s: última dose %(last)s (%(n)s dias completos sem ele antes da cirurgia); "
        "retomar %(resume)s.",
        "- %(drug)s: última dosis %(last)s (%(n)s días completos sin él antes de la cirugía); "
        "reanudar %(resume)s.",
        "- %(drug)s: dozi ya mwisho %(last)s (siku kamili %(n)s bila dawa kabla ya upasuaji); "
        "rejea %(resume)s.",
    ),
    " Check: %(why)s, on %(day)s.": (
        " Contrôle : %(why)s, le %(day)s.",
        " Verificar: %(why)s, em %(day)s.",
        " Control: %(why)s, el %(day)s.",
        " Kagua: %(why)s, tarehe %(day)s.",
    ),
    "No antithrombotic drug is on the active medication list (%(listed)s), so nothing needs "
    "stopping.": (
        "Aucun antithrombotique sur la liste des médicaments actifs (%(listed)s) : rien à arrêter.",
        "Nenhum antitrombótico na lista de medicamentos ativos (%(listed)s), então nada precisa "
        "ser suspenso.",
        "Ningún antitrombótico en la lista de medicamentos activos (%(listed)s), así que no hay "
        "nada que suspender.",
        "Hakuna dawa ya kuzuia kuganda kwa damu kwenye orodha ya dawa zinazotumika "
        "(%(listed)s), kwa hiyo hakuna cha kusitisha.",
    ),
    'No surgery date could be read in "%(said)s": on which date is the surgery? Nothing was '
    "proposed.": (
        "Aucune date de chirurgie n'a pu être lue dans « %(said)s » : à quelle date a lieu la "
        "chirurgie ? Rien n'a été proposé.",
        'Nenhuma data de cirurgia pôde ser lida em "%(said)s": em que data é a cirurgia? Nada '
        "foi proposto.",
        'No se pudo leer ninguna fecha de cirugía en "%(said)s": ¿en qué fecha es la cirugía? '
        "No se propuso nada.",
        'Hakuna tarehe ya upasuaji iliyoweza kusomwa katika "%(said)s": upasuaji ni tarehe '
        "gani? Hakuna kilichopendekezwa.",
    ),
    "%(day)s is a %(weekday)s, not a %(wrong)s: which date is the surgery? Nothing was proposed.": (
        "Le %(day)s est un %(weekday)s, pas un %(wrong)s : à quelle date a lieu la chirurgie ? "
        "Rien n'a été proposé.",
        "%(day)s é %(weekday)s, não %(wrong)s: em que data é a cirurgia? Nada foi proposto.",
        "El %(day)s es %(weekday)s, no %(wrong)s: ¿en qué fecha es la cirugía? No se propuso nada.",
        "%(day)s ni %(weekday)s, si %(wrong)s: upasuaji ni tarehe gani? Hakuna kilichopendekezwa.",
    ),
    # a result judged against its reference range (tools/chart/ranges.py)
    "above": (
        "au-dessus de",
        "acima de",
        "por encima de",
        "juu ya",
    ),
    "below": (
        "en dessous de",
        "abaixo de",
        "por debajo de",
        "chini ya",
    ),
    "within": (
        "dans",
        "dentro de",
        "dentro de",
        "ndani ya",
    ),
    "The laboratory flagged %(name)s %(value)s %(unit)s as %(flag)s.": (
        "Le laboratoire a signalé %(name)s %(value)s %(unit)s comme %(flag)s.",
        "O laboratório sinalizou %(name)s %(value)s %(unit)s como %(flag)s.",
        "El laboratorio marcó %(name)s %(value)s %(unit)s como %(flag)s.",
        "Maabara imeweka alama %(name)s %(value)s %(unit)s kama %(flag)s.",
    ),
    "%(name)s %(value)s %(unit)s is %(where)s the reference range the laboratory gave "
    "with the result (%(range)s %(range_unit)s).": (
        "%(name)s %(value)s %(unit)s est %(where)s l'intervalle de référence donné par le "
        "laboratoire avec le résultat (%(range)s %(range_unit)s).",
        "%(name)s %(value)s %(unit)s está %(where)s o intervalo de referência dado pelo "
        "laboratório com o resultado (%(range)s %(range_unit)s).",
        "%(name)s %(value)s %(unit)s está %(where)s el intervalo de referencia que dio el "
        "laboratorio con el resultado (%(range)s %(range_unit)s).",
        "%(name)s %(value)s %(unit)s iko %(where)s kiwango cha marejeleo kilichotolewa na "
        "maabara pamoja na matokeo (%(range)s %(range_unit)s).",
    ),
    "%(name)s %(value)s %(unit)s is %(where)s the adult reference interval %(range)s "
    "%(range_unit)s (%(source)s); a laboratory's own range may differ.": (
        "%(name)s %(value)s %(unit)s est %(where)s l'intervalle de référence adulte "
        "%(range)s %(range_unit)s (%(source)s) ; l'intervalle propre d'un laboratoire "
        "peut différer.",
        "%(name)s %(value)s %(unit)s está %(where)s o intervalo de referência para "
        "adultos %(range)s %(range_unit)s (%(source)s); o intervalo de cada laboratório "
        "pode diferir.",
        "%(name)s %(value)s %(unit)s está %(where)s el intervalo de referencia para "
        "adultos %(range)s %(range_unit)s (%(source)s); el intervalo de cada laboratorio "
        "puede diferir.",
        "%(name)s %(value)s %(unit)s iko %(where)s kiwango cha marejeleo cha watu wazima "
        "%(range)s %(range_unit)s (%(source)s); kiwango cha maabara husika kinaweza "
        "kutofautiana.",
    ),
    "The interval is for a fasting sample.": (
        "L'intervalle vaut pour un prélèvement à jeun.",
        "O intervalo é para uma amostra em jejum.",
        "El intervalo es para una muestra en ayunas.",
        "Kiwango hiki ni cha sampuli ya kufunga.",
    ),
    "No reference range is known here for %(name)s: the result carries none and the adult "
    "table holds none, so it is not judged.": (
        "Aucun intervalle de référence n'est connu ici pour %(name)s : le résultat n'en "
        "porte pas et la table adulte n'en contient pas, il n'est donc pas jugé.",
        "Nenhum intervalo de referência é conhecido aqui para %(name)s: o resultado não "
        "traz nenhum e a tabela de adultos não tem, por isso não é avaliado.",
        "No se conoce aquí ningún intervalo de referencia para %(name)s: el resultado no "
        "trae ninguno y la tabla de adultos no lo tiene, así que no se valora.",
        "Hakuna kiwango cha marejeleo kinachojulikana hapa kwa %(name)s: matokeo hayana "
        "na jedwali la watu wazima halina, kwa hiyo hayapimwi.",
    ),
    "these vital signs": (
        "ces signes vitaux",
        "estes sinais vitais",
        "estos signos vitales",
        "dalili hizi za uhai",
    ),
    # several results in one read (tools/chart/answers.several) and results since admission
    # (tools/chart/admission.py)
    "Results asked (%(n)s):": (
        "Résultats demandés (%(n)s) :",
        "Resultados pedidos (%(n)s):",
        "Resultados pedidos (%(n)s):",
        "Matokeo yaliyoombwa (%(n)s):",
    ),
    "The encounters could not be read (%(why)s), so the admission's start is not known; "
    "the latest results follow.": (
        "Les venues n'ont pas pu être lues (%(why)s), le début de l'hospitalisation n'est "
        "donc pas connu ; les derniers résultats suivent.",
        "Os atendimentos não puderam ser lidos (%(why)s), por isso o início da internação "
        "não é conhecido; seguem os resultados mais recentes.",
        "No se pudieron leer las atenciones (%(why)s), así que no se conoce el inicio del "
        "ingreso; siguen los resultados más recientes.",
        "Mahudhurio hayakuweza kusomwa (%(why)s), kwa hiyo mwanzo wa kulazwa haujulikani; "
        "matokeo ya karibuni yanafuata.",
    ),
    "No admission is in progress on the chart (no current encounter), so there is no "
    "'since admission' window; the latest results follow.": (
        "Aucune hospitalisation n'est en cours au dossier (aucune venue en cours), il n'y "
        "a donc pas de période « depuis l'admission » ; les derniers résultats suivent.",
        "Nenhuma internação está em curso no prontuário (nenhum atendimento em "
        "andamento), por isso não há período « desde a admissão »; seguem os resultados "
        "mais recentes.",
        "No hay ningún ingreso en curso en la historia (ninguna atención en curso), así "
        "que no hay período «desde el ingreso»; siguen los resultados más recientes.",
        "Hakuna kulazwa kunakoendelea kwenye rekodi (hakuna hudhurio linaloendelea), kwa "
        "hiyo hakuna kipindi cha « tangu kulazwa »; matokeo ya karibuni yanafuata.",
    ),
    "Since admission on %(date)s (%(ref)s, in progress):": (
        "Depuis l'admission du %(date)s (%(ref)s, en cours) :",
        "Desde a admissão em %(date)s (%(ref)s, em curso):",
        "Desde el ingreso el %(date)s (%(ref)s, en curso):",
        "Tangu kulazwa tarehe %(date)s (%(ref)s, kunaendelea):",
    ),
    # when a procedure was last done (tools/chart/procedures.py)
    "Last %(name)s on record: %(date)s — %(text)s (%(ref)s).": (
        "Dernier(e) %(name)s au dossier : %(date)s — %(text)s (%(ref)s).",
        "Último(a) %(name)s no prontuário: %(date)s — %(text)s (%(ref)s).",
        "Último(a) %(name)s en la historia: %(date)s — %(text)s (%(ref)s).",
        "%(name)s ya mwisho kwenye rekodi: %(date)s — %(text)s (%(ref)s).",
    ),
    "date not recorded": (
        "date non enregistrée",
        "data não registrada",
        "fecha no registrada",
        "tarehe haijarekodiwa",
    ),
    "Not known: the %(name)s could not be looked for, because the record could not be "
    "read (%(why)s). Do not assume it was not done.": (
        "Inconnu : %(name)s n'a pas pu être recherché(e), le dossier n'ayant pas pu être "
        "lu (%(why)s). Ne supposez pas que cela n'a pas été fait.",
        "Desconhecido: %(name)s não pôde ser procurado(a), porque o prontuário não pôde "
        "ser lido (%(why)s). Não presuma que não foi feito.",
        "Desconocido: no se pudo buscar %(name)s, porque no se pudo leer la historia "
        "(%(why)s). No asuma que no se hizo.",
        "Haijulikani: %(name)s haikuweza kutafutwa, kwa sababu rekodi haikuweza kusomwa "
        "(%(why)s). Usidhani kwamba haikufanyika.",
    ),
    "No %(name)s in the %(n)s records that could be read; the rest could not be read "
    "(%(why)s), so this is not a full answer. Do not assume it was not done.": (
        "Aucun(e) %(name)s dans les %(n)s enregistrements lisibles ; le reste n'a pas pu "
        "être lu (%(why)s), la réponse n'est donc pas complète. Ne supposez pas que cela "
        "n'a pas été fait.",
        "Nenhum(a) %(name)s nos %(n)s registros que puderam ser lidos; o restante não "
        "pôde ser lido (%(why)s), por isso a resposta não é completa. Não presuma que não "
        "foi feito.",
        "Ningún(a) %(name)s en los %(n)s registros que se pudieron leer; el resto no se "
        "pudo leer (%(why)s), así que la respuesta no es completa. No asuma que no se "
        "hizo.",
        "Hakuna %(name)s katika rekodi %(n)s zilizoweza kusomwa; zilizobaki hazikuweza "
        "kusomwa (%(why)s), kwa hiyo hili si jibu kamili. Usidhani kwamba haikufanyika.",
    ),
    "No %(name)s is recorded in what I can read: %(procedures)s procedures and "
    "%(encounters)s encounters searched, all dates. It may have been done elsewhere; "
    "check the ophthalmology, endoscopy or imaging record.": (
        "Aucun(e) %(name)s n'est enregistré(e) dans ce que je peux lire : %(procedures)s "
        "actes et %(encounters)s venues recherchés, toutes dates. Cela a pu être fait "
        "ailleurs ; vérifiez le dossier d'ophtalmologie, d'endoscopie ou d'imagerie.",
        "Nenhum(a) %(name)s está registrado(a) no que posso ler: %(procedures)s "
        "procedimentos e %(encounters)s atendimentos pesquisados, todas as datas. Pode "
        "ter sido feito em outro lugar; verifique o registro de oftalmologia, endoscopia "
        "ou imagem.",
        "No consta ningún(a) %(name)s en lo que puedo leer: %(procedures)s procedimientos "
        "y %(encounters)s atenciones buscados, todas las fechas. Puede haberse hecho en "
        "otro lugar; revise el registro de oftalmología, endoscopia o imagen.",
        "Hakuna %(name)s iliyorekodiwa katika ninachoweza kusoma: taratibu %(procedures)s "
        "na mahudhurio %(encounters)s yametafutwa, tarehe zote. Huenda ilifanyika mahali "
        "pengine; angalia rekodi ya macho, endoskopia au picha.",
    ),
    # a result against the target a drug she takes sets for it (tools/chart/ranges.py)
    "%(name)s %(value)s %(unit)s is %(where)s the target for a patient on %(drug)s, "
    "%(range)s (%(source)s).": (
        "%(name)s %(value)s %(unit)s est %(where)s la cible d'un patient sous %(drug)s, "
        "%(range)s (%(source)s).",
        "%(name)s %(value)s %(unit)s está %(where)s o alvo de um paciente em uso de "
        "%(drug)s, %(range)s (%(source)s).",
        "%(name)s %(value)s %(unit)s está %(where)s el objetivo de un paciente con "
        "%(drug)s, %(range)s (%(source)s).",
        "%(name)s %(value)s %(unit)s iko %(where)s lengo la mgonjwa anayetumia %(drug)s, "
        "%(range)s (%(source)s).",
    ),
    # a draft's title, headings and fixed sentences in the language asked
    # (tools/writes/draft_words.py)
    'Discharge summary': (
        'Compte rendu de sortie',
        'Resumo de alta',
        'Informe de alta',
        'Muhtasari wa kuruhusiwa',
    ),
    'Progress note': (
        "Note d'évolution",
        'Nota de evolução',
        'Nota de evolución',
        'Kumbukumbu ya maendeleo',
    ),
    'Handoff note (I-PASS)': (
        'Transmissions (I-PASS)',
        'Passagem de plantão (I-PASS)',
        'Pase de guardia (I-PASS)',
        'Makabidhiano (I-PASS)',
    ),
    'Referral note': (
        "Lettre d'adressage",
        'Carta de encaminhamento',
        'Carta de derivación',
        'Barua ya rufaa',
    ),
    'Problems': (
        'Problèmes',
        'Problemas',
        'Problemas',
        'Matatizo',
    ),
    'Medications (what changed and when)': (
        'Traitements (ce qui a changé et quand)',
        'Medicamentos (o que mudou e quando)',
        'Medicamentos (qué cambió y cuándo)',
        'Dawa (kilichobadilika na lini)',
    ),
    'Key results': (
        'Résultats principaux',
        'Resultados principais',
        'Resultados principales',
        'Matokeo makuu',
    ),
    'Allergies': (
        'Allergies',
        'Alergias',
        'Alergias',
        'Mizio',
    ),
    'Plan and follow-up': (
        'Plan et suivi',
        'Plano e seguimento',
        'Plan y seguimiento',
        'Mpango na ufuatiliaji',
    ),
    'Illness severity': (
        'Gravité',
        'Gravidade',
        'Gravedad',
        'Ukali wa ugonjwa',
    ),
    'Patient summary': (
        'Résumé du patient',
        'Resumo do paciente',
        'Resumen del paciente',
        'Muhtasari wa mgonjwa',
    ),
    'Action list': (
        'Liste des actions',
        'Lista de ações',
        'Lista de acciones',
        'Orodha ya kazi',
    ),
    'Situation awareness and contingencies': (
        'Vigilance et conduites à tenir',
        'Atenção à situação e contingências',
        'Vigilancia y contingencias',
        'Ufahamu wa hali na dharura',
    ),
    'Synthesis by receiver': (
        'Synthèse par le receveur',
        'Síntese por quem recebe',
        'Síntesis por quien recibe',
        'Muhtasari wa mpokeaji',
    ),
    'Referral': (
        'Adressage',
        'Encaminhamento',
        'Derivación',
        'Rufaa',
    ),
    'Relevant history': (
        'Antécédents pertinents',
        'História relevante',
        'Antecedentes relevantes',
        'Historia husika',
    ),
    'Results': (
        'Résultats',
        'Resultados',
        'Resultados',
        'Matokeo',
    ),
    'Medications': (
        'Traitements',
        'Medicamentos',
        'Medicamentos',
        'Dawa',
    ),
    'Added by the clinician': (
        'Ajouté par le clinicien',
        'Acrescentado pelo clínico',
        'Añadido por el clínico',
        'Imeongezwa na mtabibu',
    ),
    'Checked against the chart': (
        'Vérifié dans le dossier',
        'Verificado no prontuário',
        'Verificado en la historia clínica',
        'Imekaguliwa dhidi ya jalada',
    ),
    'Watcher: a result above its contingency threshold': (
        "À surveiller : un résultat au-dessus de son seuil d'alerte",
        'Em observação: um resultado acima do limiar de contingência',
        'En vigilancia: un resultado por encima de su umbral de contingencia',
        'Wa kuangaliwa: tokeo juu ya kiwango chake cha dharura',
    ),
    'Stable: no result above a contingency threshold on the chart': (
        "Stable : aucun résultat au-dessus d'un seuil d'alerte dans le dossier",
        'Estável: nenhum resultado acima de um limiar de contingência no prontuário',
        'Estable: ningún resultado por encima de un umbral de contingencia en la historia',
        'Imara: hakuna tokeo juu ya kiwango cha dharura kwenye jalada',
    ),
    'No outstanding task recorded on the chart': (
        'Aucune tâche en attente dans le dossier',
        'Nenhuma tarefa pendente registrada no prontuário',
        'Ninguna tarea pendiente registrada en la historia',
        'Hakuna kazi inayosubiri kwenye jalada',
    ),
    'No results recorded': (
        'Aucun résultat enregistré',
        'Nenhum resultado registrado',
        'Ningún resultado registrado',
        'Hakuna matokeo yaliyorekodiwa',
    ),
    'Receiver restates the summary and the action list, and asks any question before '
    'taking over': (
        'Le receveur reformule le résumé et la liste des actions, et pose ses '
        'questions avant de prendre le relais',
        'Quem recebe repete o resumo e a lista de ações e tira dúvidas antes de assumir',
        'Quien recibe repite el resumen y la lista de acciones, y pregunta sus dudas '
        'antes de asumir',
        'Mpokeaji anarudia muhtasari na orodha ya kazi, na anauliza maswali kabla ya kupokea',
    ),
    "No contingency rule covers this chart's results; call the senior with any concern": (
        "Aucune règle d'alerte ne couvre les résultats de ce dossier ; appeler le "
        'senior au moindre doute',
        'Nenhuma regra de contingência cobre os resultados deste prontuário; chamar o'
        ' sênior em caso de dúvida',
        'Ninguna regla de contingencia cubre los resultados de esta historia; llamar '
        'al adjunto ante cualquier duda',
        'Hakuna kanuni ya dharura inayoshughulikia matokeo ya jalada hili; mpigie '
        'daktari mkuu ukiwa na wasiwasi',
    ),
    # an order's drug and dose read so far, after the question asking what it lacks
    "Read so far: %(order)s.": (
        "Déjà lu : %(order)s.",
        "Já lido: %(order)s.",
        "Leído hasta ahora: %(order)s.",
        "Kilichosomwa hadi sasa: %(order)s.",
    ),
    "No medication order of this conversation to repeat: name the drug, dose and frequency, and I "
    "will draft it; nothing was drafted.": (
        "Aucune prescription de cette conversation à refaire : indiquez le médicament, la dose et "
        "la fréquence, et je la préparerai ; rien n'a été préparé.",
        "Nenhuma prescrição desta conversa para repetir: informe o medicamento, a dose e a "
        "frequência, e eu a preparo; nada foi preparado.",
        "Ninguna orden de esta conversación que repetir: indique el medicamento, la dosis y la "
        "frecuencia, y la prepararé; no se preparó nada.",
        "Hakuna agizo la dawa la mazungumzo haya la kurudia: taja dawa, dozi na mara ngapi, "
        "nami nitaliandaa; hakuna kilichoandaliwa.",
    ),
}
