"""The interface's translations as data, written into the gettext catalogs by
``python -m smart_docgemma.translations.strings`` (after ``pybabel extract``; docs/languages.md).

msgid → (fr, pt, es); a plural msgid → ((fr one, fr many), (pt …), (es …)). Kept here so a
reviewer sees the three languages side by side; the .po files are generated from this table
and ``pybabel compile`` makes the .mo files shipped in the wheel.
"""
from __future__ import annotations

from .messages import F
from .swahili import SW

T = {
    "Citations": ("Citations", "Citações", "Citas"),
    "%(num)s sentence could not be found in the record cited and is marked.": (
        (
            "%(num)s phrase est introuvable dans le dossier cité et est signalée.",
            "%(num)s phrases sont introuvables dans les dossiers cités et sont signalées.",
        ),
        (
            "%(num)s frase não foi encontrada no registro citado e está marcada.",
            "%(num)s frases não foram encontradas nos registros citados e estão marcadas.",
        ),
        (
            "%(num)s frase no se encontró en el registro citado y está marcada.",
            "%(num)s frases no se encontraron en los registros citados y están marcadas.",
        ),
    ),
    # strings main added while this was being written (model name, MCP, prescriber role)
    "Answered by %(model)s": (
        "Réponse rédigée par %(model)s",
        "Respondido por %(model)s",
        "Respondido por %(model)s",
    ),
    "Answers are written by": (
        "Les réponses sont rédigées par",
        "As respostas são escritas por",
        "Las respuestas las escribe",
    ),
    "safety findings are checked by code.": (
        "les alertes de sécurité sont vérifiées par le code.",
        "os alertas de segurança são verificados por código.",
        "las alertas de seguridad se verifican por código.",
    ),
    "Awaiting your approval: requests from MCP clients": (
        "En attente de votre validation : demandes des clients MCP",
        "Aguardando sua aprovação: pedidos de clientes MCP",
        "Pendiente de su aprobación: solicitudes de clientes MCP",
    ),
    "Ask again": ("Redemander", "Perguntar de novo", "Preguntar de nuevo"),
    "Prescriber approval needed.": (
        "Validation par un prescripteur nécessaire.",
        "É necessária a aprovação de um prescritor.",
        "Se necesita la aprobación de un prescriptor.",
    ),
    # templates/proposals/page.html (an MCP client's proposal on a page of its own)
    "Proposal awaiting approval": (
        "Proposition en attente de validation",
        "Proposta aguardando aprovação",
        "Propuesta pendiente de aprobación",
    ),
    "Chart write awaiting a clinician's approval": (
        "Écriture dans le dossier en attente de la validation d'un clinicien",
        "Gravação no prontuário aguardando a aprovação de um clínico",
        "Escritura en la historia pendiente de la aprobación de un clínico",
    ),
    "Requested over MCP by the client %(client)s.": (
        "Demandé via MCP par le client %(client)s.",
        "Pedido via MCP pelo cliente %(client)s.",
        "Solicitado vía MCP por el cliente %(client)s.",
    ),
    "Nothing has been written to the chart until you approve it.": (
        "Rien n'est écrit dans le dossier avant votre validation.",
        "Nada é gravado no prontuário antes da sua aprovação.",
        "No se escribe nada en la historia hasta que usted lo apruebe.",
    ),
    "Back to the assistant": (
        "Retour à l'assistant",
        "Voltar ao assistente",
        "Volver al asistente",
    ),
    # static/app.js (web/language.py script_strings)
    "The request failed (HTTP %s).": (
        "La requête a échoué (HTTP %s).",
        "O pedido falhou (HTTP %s).",
        "La solicitud falló (HTTP %s).",
    ),
    "Progress": ("Progression", "Progresso", "Progreso"),
    "Consulting: ": ("Consultation : ", "Consultando: ", "Consultando: "),
    "The connection was lost. Reload the page to see the answer.": (
        "La connexion a été perdue. Rechargez la page pour voir la réponse.",
        "A conexão caiu. Recarregue a página para ver a resposta.",
        "Se perdió la conexión. Recargue la página para ver la respuesta.",
    ),
    "characters": ("caractères", "caracteres", "caracteres"),
    "This image is too large (limit %s MB).": (
        "Cette image est trop lourde (limite %s Mo).",
        "Esta imagem é grande demais (limite %s MB).",
        "Esta imagen es demasiado grande (límite %s MB).",
    ),
    "Cancel": ("Annuler", "Cancelar", "Cancelar"),
    "Stop this answer (Escape)": (
        "Arrêter cette réponse (Échap)",
        "Parar esta resposta (Esc)",
        "Detener esta respuesta (Esc)",
    ),
    "Cancelling…": ("Annulation…", "Cancelando…", "Cancelando…"),
    "Working…": ("En cours…", "Processando…", "Procesando…"),
    "The assistant could not be reached. Check the connection and try again.": (
        "L'assistant est injoignable. Vérifiez la connexion et réessayez.",
        "Não foi possível contactar o assistente. Verifique a conexão e tente de novo.",
        "No se pudo contactar al asistente. Verifique la conexión e intente de nuevo.",
    ),
    # the card's action sentence (proposals/describe.py) and field labels (web/language.py)
    "%(n)s times daily": ("%(n)s fois par jour", "%(n)sx ao dia", "%(n)s veces al día"),
    "%(n)s times every %(period)s %(unit)s": (
        "%(n)s fois tous les %(period)s %(unit)s",
        "%(n)s vezes a cada %(period)s %(unit)s",
        "%(n)s veces cada %(period)s %(unit)s",
    ),
    "; dispense %(quantity)s": (
        "; délivrer %(quantity)s",
        "; dispensar %(quantity)s",
        "; dispensar %(quantity)s",
    ),
    "Code": ("Code", "Código", "Código"),
    "Create a %(type)s": ("Créer un(e) %(type)s", "Criar %(type)s", "Crear %(type)s"),
    "Length": ("Longueur", "Tamanho", "Longitud"),
    "Medication": ("Médicament", "Medicamento", "Medicamento"),
    "Notes": ("Remarques", "Observações", "Observaciones"),
    "Record a %(kind)s allergy to %(substance)s": (
        "Enregistrer une allergie (%(kind)s) à %(substance)s",
        "Registrar alergia (%(kind)s) a %(substance)s",
        "Registrar alergia (%(kind)s) a %(substance)s",
    ),
    "Record an allergy to %(substance)s": (
        "Enregistrer une allergie à %(substance)s",
        "Registrar alergia a %(substance)s",
        "Registrar alergia a %(substance)s",
    ),
    "Save a %(kind)s (%(n)s characters) to the chart": (
        "Enregistrer une note « %(kind)s » (%(n)s caractères) dans le dossier",
        "Salvar %(kind)s (%(n)s caracteres) no prontuário",
        "Guardar %(kind)s (%(n)s caracteres) en la historia",
    ),
    "Start %(drug)s": ("Débuter %(drug)s", "Iniciar %(drug)s", "Iniciar %(drug)s"),
    "Stop %(drug)s (replaced by the order above)": (
        "Arrêter %(drug)s (remplacé par la prescription ci-dessus)",
        "Suspender %(drug)s (substituído pela prescrição acima)",
        "Suspender %(drug)s (sustituido por la orden anterior)",
    ),
    "a medication": ("un médicament", "um medicamento", "un medicamento"),
    "an unnamed substance": (
        "une substance sans nom",
        "uma substância sem nome",
        "una sustancia sin nombre",
    ),
    "as needed": ("si besoin", "se necessário", "según necesidad"),
    "by inhalation": ("en inhalation", "por inalação", "por inhalación"),
    "by mouth": ("par voie orale", "por via oral", "por vía oral"),
    "every %(n)s days": ("tous les %(n)s jours", "a cada %(n)s dias", "cada %(n)s días"),
    "every %(n)s hours": ("toutes les %(n)s heures", "de %(n)s/%(n)sh", "cada %(n)s horas"),
    "every %(n)s months": ("tous les %(n)s mois", "a cada %(n)s meses", "cada %(n)s meses"),
    "every %(n)s weeks": (
        "toutes les %(n)s semaines",
        "a cada %(n)s semanas",
        "cada %(n)s semanas",
    ),
    "every hour": ("toutes les heures", "de hora em hora", "cada hora"),
    "five times daily": ("cinq fois par jour", "5x ao dia", "cinco veces al día"),
    "for %(n)s %(unit)s": (
        "pendant %(n)s %(unit)s",
        "por %(n)s %(unit)s",
        "durante %(n)s %(unit)s",
    ),
    "for %(num)s day": (
        ("pendant %(num)s jour", "pendant %(num)s jours"),
        ("por %(num)s dia", "por %(num)s dias"),
        ("durante %(num)s día", "durante %(num)s días"),
    ),
    "four times daily": ("quatre fois par jour", "4x ao dia", "cuatro veces al día"),
    "intramuscularly": ("en intramusculaire", "por via intramuscular", "por vía intramuscular"),
    "intravenously": ("en intraveineuse", "por via endovenosa", "por vía intravenosa"),
    "note": ("note", "nota", "nota"),
    "once daily": ("une fois par jour", "1x ao dia", "una vez al día"),
    "once monthly": ("une fois par mois", "1x ao mês", "una vez al mes"),
    "once weekly": ("une fois par semaine", "1x por semana", "una vez por semana"),
    "six times daily": ("six fois par jour", "6x ao dia", "seis veces al día"),
    "subcutaneously": ("en sous-cutané", "por via subcutânea", "por vía subcutánea"),
    "three times daily": ("trois fois par jour", "3x ao dia", "tres veces al día"),
    "three times weekly": ("trois fois par semaine", "3x por semana", "tres veces por semana"),
    "topically": ("en application locale", "por via tópica", "por vía tópica"),
    "twice daily": ("deux fois par jour", "2x ao dia", "dos veces al día"),
    "twice weekly": ("deux fois par semaine", "2x por semana", "dos veces por semana"),
    "%(num)s model call": (
        ("%(num)s appel au modèle", "%(num)s appels au modèle"),
        ("%(num)s chamada ao modelo", "%(num)s chamadas ao modelo"),
        ("%(num)s llamada al modelo", "%(num)s llamadas al modelo"),
    ),
    "%(num)s more lab series in the chart.": (
        (
            "%(num)s autre série biologique dans le dossier.",
            "%(num)s autres séries biologiques dans le dossier.",
        ),
        (
            "Mais %(num)s série de exames no prontuário.",
            "Mais %(num)s séries de exames no prontuário.",
        ),
        (
            "%(num)s serie de laboratorio más en la historia.",
            "%(num)s series de laboratorio más en la historia.",
        ),
    ),
    "%(num)s source": (
        ("%(num)s source", "%(num)s sources"),
        ("%(num)s fonte", "%(num)s fontes"),
        ("%(num)s fuente", "%(num)s fuentes"),
    ),
    "%(num)s step": (
        ("%(num)s étape", "%(num)s étapes"),
        ("%(num)s etapa", "%(num)s etapas"),
        ("%(num)s paso", "%(num)s pasos"),
    ),
    "A review of this draft against the sources consulted; it adds no new facts.": (
        "Une relecture de ce brouillon au regard des "
        "sources consultées ; elle n'ajoute aucun fait.",
        "Uma revisão deste rascunho com base nas fontes consultadas; não acrescenta fatos novos.",
        "Una revisión de este borrador frente a las fuentes consultadas; no añade datos nuevos.",
    ),
    "Acknowledge the second look first.": (
        "Prenez d'abord connaissance du second regard.",
        "Confirme antes a segunda leitura.",
        "Confirme primero la segunda revisión.",
    ),
    "Active problems": ("Problèmes actifs", "Problemas ativos", "Problemas activos"),
    "Allergies": ("Allergies", "Alergias", "Alergias"),
    "Approve and write to chart": (
        "Valider et écrire dans le dossier",
        "Aprovar e gravar no prontuário",
        "Aprobar y escribir en la historia",
    ),
    "Approved": ("Validé", "Aprovado", "Aprobado"),
    "As needed": ("Si besoin", "Se necessário", "Según necesidad"),
    "Ask": ("Demander", "Perguntar", "Preguntar"),
    "Ask about this patient — for example “Any interactions between warfarin and aspirin?” or "
    "“Prescribe amlodipine 5 mg once daily”. Nothing "
    "is written to the chart until you approve it.": (
        "Posez une question sur ce patient — par exemple « interaction entre "
        "warfarine et aspirine ? » ou « prescrire amlodipine 5 mg une fois "
        "par jour ». Rien n'est écrit dans le dossier avant votre validation.",
        "Pergunte sobre este paciente — por exemplo “interação entre varfarina e aspirina?” ou "
        "“prescrever anlodipino 5 mg 1x ao dia”. Nada é "
        "gravado no prontuário antes da sua aprovação.",
        "Pregunte sobre este paciente — por ejemplo “¿interacción entre warfarina y aspirina?” o "
        "“indicar amlodipino 5 mg una vez al día”. No se "
        "escribe nada en la historia hasta que usted lo apruebe.",
    ),
    "Asked with": ("Demandé avec", "Consultado com", "Consultado con"),
    "Attach image": ("Joindre une image", "Anexar imagem", "Adjuntar imagen"),
    "Awaiting your approval": (
        "En attente de votre validation",
        "Aguardando sua aprovação",
        "Pendiente de su aprobación",
    ),
    "Awaiting your decision on the card below; the conversation "
    "continues once you approve, edit or reject it.": (
        "En attente de votre décision sur la carte ci-dessous ; la conversation reprend dès que "
        "vous la validez, la modifiez ou la refusez.",
        "Aguardando sua decisão no cartão abaixo; a conversa "
        "continua quando você aprovar, editar ou rejeitar.",
        "Pendiente de su decisión en la tarjeta de abajo; la conversación continúa cuando la "
        "apruebe, edite o rechace.",
    ),
    "Not yet confirmed by the EHR": (
        "Pas encore confirmé par le DPI",
        "Ainda não confirmado pelo prontuário",
        "Aún no confirmado por la historia clínica",
    ),
    "Check the chart and approve again": (
        "Vérifier le dossier et valider à nouveau",
        "Verificar o prontuário e aprovar de novo",
        "Comprobar la historia y aprobar de nuevo",
    ),
    "Being written to the chart…": (
        "Écriture dans le dossier…",
        "Gravando no prontuário…",
        "Escribiendo en la historia…",
    ),
    "Cancelled. Nothing was written to the chart.": (
        "Annulé. Rien n'a été écrit dans le dossier.",
        "Cancelado. Nada foi gravado no prontuário.",
        "Cancelado. No se escribió nada en la historia.",
    ),
    "Category": ("Catégorie", "Categoria", "Categoría"),
    "Change language": ("Changer de langue", "Mudar idioma", "Cambiar idioma"),
    "Chart at a glance": (
        "Le dossier en un coup d'œil",
        "Prontuário em resumo",
        "Historia de un vistazo",
    ),
    "Clinical trace": ("Trace clinique", "Rastro clínico", "Traza clínica"),
    "Close this window and open the assistant again from the patient's chart.": (
        "Fermez cette fenêtre et rouvrez l'assistant depuis le dossier du patient.",
        "Feche esta janela e abra o assistente de novo a partir do prontuário do paciente.",
        "Cierre esta ventana y vuelva a abrir el asistente desde la historia del paciente.",
    ),
    "Connected to %(iss)s as %(user)s.": (
        "Connecté à %(iss)s en tant que %(user)s.",
        "Conectado a %(iss)s como %(user)s.",
        "Conectado a %(iss)s como %(user)s.",
    ),
    "Created %(ref)s in the EHR by %(who)s.": (
        "%(ref)s créé dans le dossier par %(who)s.",
        "%(ref)s criado no prontuário por %(who)s.",
        "%(ref)s creado en la historia por %(who)s.",
    ),
    "Created %(ref)s in the EHR.": (
        "%(ref)s créé dans le dossier.",
        "%(ref)s criado no prontuário.",
        "%(ref)s creado en la historia.",
    ),
    "Critical": ("Critique", "Crítico", "Crítico"),
    "Criticality": ("Criticité", "Criticidade", "Criticidad"),
    "DOB": ("Né(e) le", "Nasc.", "F. nac."),
    "DocGemma assistant": ("Assistant DocGemma", "Assistente DocGemma", "Asistente DocGemma"),
    "Dose": ("Dose", "Dose", "Dosis"),
    "Duration (days)": ("Durée (jours)", "Duração (dias)", "Duración (días)"),
    "Edit before approving": (
        "Modifier avant de valider",
        "Editar antes de aprovar",
        "Editar antes de aprobar",
    ),
    "Edited": ("Modifié", "Editado", "Editado"),
    "Edited by %(who)s": ("Modifié par %(who)s", "Editado por %(who)s", "Editado por %(who)s"),
    "Enter sends, Shift+Enter adds a line.": (
        "Entrée envoie, Maj+Entrée ajoute une ligne.",
        "Enter envia, Shift+Enter adiciona uma linha.",
        "Intro envía, Mayús+Intro añade una línea.",
    ),
    "Error code:": ("Code d'erreur :", "Código do erro:", "Código de error:"),
    "FHIR %(type)s to be created": (
        "%(type)s FHIR à créer",
        "%(type)s FHIR a ser criado",
        "%(type)s FHIR que se creará",
    ),
    "Failed": ("Échec", "Falhou", "Falló"),
    "Female": ("Femme", "Feminino", "Femenino"),
    "Frequency": ("Fréquence", "Frequência", "Frecuencia"),
    "I have read the second look": (
        "J'ai lu le second regard",
        "Li a segunda leitura",
        "He leído la segunda revisión",
    ),
    "Info": ("Info", "Info", "Info"),
    "Instructions": ("Consignes", "Instruções", "Instrucciones"),
    "Labs": ("Biologie", "Exames", "Laboratorio"),
    "Language": ("Langue", "Idioma", "Idioma"),
    "Latest": ("Dernier", "Último", "Último"),
    "MRN": ("IPP", "Nº prontuário", "Nº historia"),
    "Male": ("Homme", "Masculino", "Masculino"),
    "Medications": ("Traitements", "Medicamentos", "Medicamentos"),
    "Model reasoning": (
        "Raisonnement du modèle",
        "Raciocínio do modelo",
        "Razonamiento del modelo",
    ),
    "Model unavailable": ("Modèle indisponible", "Modelo indisponível", "Modelo no disponible"),
    "No active medications.": (
        "Aucun traitement actif.",
        "Nenhum medicamento ativo.",
        "Ningún medicamento activo.",
    ),
    "No results.": ("Aucun résultat.", "Nenhum resultado.", "Sin resultados."),
    "No safety findings from the checks that ran.": (
        "Aucune alerte de sécurité issue des vérifications effectuées.",
        "Nenhum alerta de segurança nas verificações feitas.",
        "Ninguna alerta de seguridad en las verificaciones realizadas.",
    ),
    "None recorded.": ("Aucune renseignée.", "Nenhum registrado.", "Ninguno registrado."),
    "Not available": ("Non disponible", "Indisponível", "No disponible"),
    "Not available.": ("Non disponible.", "Indisponível.", "No disponible."),
    "Not useful": ("Pas utile", "Não útil", "No útil"),
    "Note text": ("Texte de la note", "Texto da nota", "Texto de la nota"),
    "Note type": ("Type de note", "Tipo de nota", "Tipo de nota"),
    "Nothing was written to the chart.": (
        "Rien n'a été écrit dans le dossier.",
        "Nada foi gravado no prontuário.",
        "No se escribió nada en la historia.",
    ),
    "Other": ("Autre", "Outro", "Otro"),
    "PNG, JPEG, DICOM; up to %(mb)s MB": (
        "PNG, JPEG, DICOM ; jusqu'à %(mb)s Mo",
        "PNG, JPEG, DICOM; até %(mb)s MB",
        "PNG, JPEG, DICOM; hasta %(mb)s MB",
    ),
    "Patient": ("Patient", "Paciente", "Paciente"),
    "Provenance:": ("Provenance :", "Proveniência:", "Procedencia:"),
    "Quantity to dispense": (
        "Quantité à délivrer",
        "Quantidade a dispensar",
        "Cantidad a dispensar",
    ),
    "Question about %(name)s": (
        "Question sur %(name)s",
        "Pergunta sobre %(name)s",
        "Pregunta sobre %(name)s",
    ),
    "Question about this patient": (
        "Question sur ce patient",
        "Pergunta sobre este paciente",
        "Pregunta sobre este paciente",
    ),
    "Reaction": ("Réaction", "Reação", "Reacción"),
    "Reason for rejecting": ("Motif du refus", "Motivo da rejeição", "Motivo del rechazo"),
    "Recording your decision…": (
        "Enregistrement de votre décision…",
        "Registrando sua decisão…",
        "Registrando su decisión…",
    ),
    "Refresh": ("Actualiser", "Atualizar", "Actualizar"),
    "Reject": ("Refuser", "Rejeitar", "Rechazar"),
    "Rejected": ("Refusé", "Rejeitado", "Rechazado"),
    "Rejected by %(who)s:": (
        "Refusé par %(who)s :",
        "Rejeitado por %(who)s:",
        "Rechazado por %(who)s:",
    ),
    "Rejected:": ("Refusé :", "Rejeitado:", "Rechazado:"),
    "Result": ("Résultat", "Resultado", "Resultado"),
    "Route": ("Voie", "Via", "Vía"),
    "Safety findings": ("Alertes de sécurité", "Alertas de segurança", "Alertas de seguridad"),
    "Save changes and re-check": (
        "Enregistrer et revérifier",
        "Salvar e verificar de novo",
        "Guardar y volver a verificar",
    ),
    "Second look": ("Second regard", "Segunda leitura", "Segunda revisión"),
    "Severity": ("Gravité", "Gravidade", "Gravedad"),
    "Sex unknown": ("Sexe inconnu", "Sexo desconhecido", "Sexo desconocido"),
    "Skip to content": ("Aller au contenu", "Ir para o conteúdo", "Ir al contenido"),
    "Source": ("Source", "Fonte", "Fuente"),
    "Sources": ("Sources", "Fontes", "Fuentes"),
    "Still working on this answer…": (
        "Réponse en cours…",
        "Ainda preparando esta resposta…",
        "Todavía preparando esta respuesta…",
    ),
    "Substance": ("Substance", "Substância", "Sustancia"),
    "Test": ("Examen", "Exame", "Prueba"),
    "The assistant needs JavaScript to stream answers. Approval cards still work without it.": (
        "L'assistant a besoin de JavaScript pour afficher les réponses au fil de l'eau. "
        "Les cartes de validation fonctionnent sans.",
        "O assistente precisa de JavaScript para mostrar as "
        "respostas. Os cartões de aprovação funcionam sem ele.",
        "El asistente necesita JavaScript para mostrar las "
        "respuestas. Las tarjetas de aprobación funcionan sin él.",
    ),
    "The assistant, after your decision:": (
        "L'assistant, après votre décision :",
        "O assistente, após sua decisão:",
        "El asistente, tras su decisión:",
    ),
    "Trend": ("Évolution", "Tendência", "Tendencia"),
    "Unit": ("Unité", "Unidade", "Unidad"),
    "Useful": ("Utile", "Útil", "Útil"),
    "Vitals": ("Constantes", "Sinais vitais", "Signos vitales"),
    "Warning": ("Avertissement", "Aviso", "Advertencia"),
    "Was this answer useful?": (
        "Cette réponse était-elle utile ?",
        "Esta resposta foi útil?",
        "¿Le fue útil esta respuesta?",
    ),
    "What changed": ("Ce qui a changé", "O que mudou", "Qué cambió"),
    "What the source returned": (
        "Ce que la source a renvoyé",
        "O que a fonte retornou",
        "Lo que devolvió la fuente",
    ),
    "You asked:": ("Vous avez demandé :", "Você perguntou:", "Usted preguntó:"),
    "You rated this answer not useful.": (
        "Vous avez jugé cette réponse pas utile.",
        "Você avaliou esta resposta como não útil.",
        "Usted calificó esta respuesta como no útil.",
    ),
    "You rated this answer useful.": (
        "Vous avez jugé cette réponse utile.",
        "Você avaliou esta resposta como útil.",
        "Usted calificó esta respuesta como útil.",
    ),
    "answers summarise what the sources returned, with no AI interpretation.": (
        "les réponses résument ce que les sources ont renvoyé, sans interprétation par l'IA.",
        "as respostas resumem o que as fontes retornaram, sem interpretação por IA.",
        "las respuestas resumen lo que devolvieron las fuentes, sin interpretación por IA.",
    ),
    "e.g. twice daily, every 8 hours": (
        "ex. deux fois par jour, toutes les 8 heures",
        "ex. 2x ao dia, de 8/8h",
        "ej. dos veces al día, cada 8 horas",
    ),
    "falling": ("en baisse", "em queda", "en descenso"),
    "name could not be read from the chart": (
        "nom illisible dans le dossier",
        "nome não pôde ser lido do prontuário",
        "no se pudo leer el nombre en la historia",
    ),
    "not recorded": ("non renseigné", "não registrado", "no registrado"),
    "not specified": ("non précisée", "não especificada", "no especificada"),
    "not stated": ("non précisé", "não informado", "no indicado"),
    "one result": ("un seul résultat", "um resultado", "un resultado"),
    "rising": ("en hausse", "em alta", "en aumento"),
    "since %(date)s": ("depuis le %(date)s", "desde %(date)s", "desde %(date)s"),
    "%(series)s, latest %(date)s": (
        "%(series)s, dernier le %(date)s",
        "%(series)s, último em %(date)s",
        "%(series)s, último el %(date)s",
    ),
    "stable": ("stable", "estável", "estable"),
    "this is a summary of what the sources returned, without AI interpretation.": (
        "ceci résume ce que les sources ont renvoyé, sans interprétation par l'IA.",
        "isto resume o que as fontes retornaram, sem interpretação por IA.",
        "esto resume lo que devolvieron las fuentes, sin interpretación por IA.",
    ),
    "unknown": ("inconnue", "desconhecida", "desconocida"),
    "unknown user": ("utilisateur inconnu", "usuário desconhecido", "usuario desconocido"),
    "version %(n)s": ("version %(n)s", "versão %(n)s", "versión %(n)s"),
    "with %(kind)s image, %(kb)s KB": (
        "avec une image %(kind)s, %(kb)s Ko",
        "com imagem %(kind)s, %(kb)s KB",
        "con imagen %(kind)s, %(kb)s KB",
    ),
    "with an image, %(kb)s KB": (
        "avec une image, %(kb)s Ko",
        "com uma imagem, %(kb)s KB",
        "con una imagen, %(kb)s KB",
    ),
    "why (optional)": ("pourquoi (facultatif)", "por quê (opcional)", "por qué (opcional)"),
}
LOCALES = ("fr", "pt", "es", "sw")
# Two plural forms each, as the tables above give them. Babel's newer CLDR data gives French,
# Portuguese and Spanish a third form (for a million and more), which would leave every plural
# of the tables untranslated in that form: the catalogs keep the two-form rules.
PLURALS = {"fr": (2, "(n > 1)"), "pt": (2, "(n != 1)"), "es": (2, "(n != 1)"),
           "sw": (2, "(n != 1)")}


def write_catalogs(folder) -> list[str]:
    """Fill ``<folder>/<lang>/LC_MESSAGES/messages.po`` from ``messages.pot`` and ``T``;
    returns the template's msgids that have no translation (they would show in English)."""
    from pathlib import Path

    from babel.messages.pofile import read_po, write_po

    folder = Path(folder)
    missing: list[str] = []
    for n, lang in enumerate(LOCALES):
        catalog = read_po((folder / "messages.pot").open("rb"), locale=lang)
        catalog.fuzzy = False  # every entry is a reviewed translation from ``T``
        catalog._num_plurals, catalog._plural_expr = PLURALS[lang]  # type: ignore[assignment]
        for message in catalog:
            if not message.id:
                continue
            key = message.id if isinstance(message.id, str) else message.id[0]
            said = SW.get(key) if lang == "sw" else (T[key][n] if key in T else None)
            if said is None and key in F:  # the sentences the code writes (messages.py)
                said = F[key][n]
            if said is None:
                missing.append(key)
                continue
            message.string = said  # type: ignore[assignment]  # a plural is a tuple
        out = folder / lang / "LC_MESSAGES" / "messages.po"
        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("wb") as fh:
            write_po(fh, catalog, omit_header=False, no_location=True, sort_output=True)
    return sorted(set(missing))


if __name__ == "__main__":
    import sys

    left = write_catalogs(__import__("pathlib").Path(__file__).parent)
    for m in left:
        print("untranslated:", m, file=sys.stderr)
    sys.exit(1 if left else 0)
