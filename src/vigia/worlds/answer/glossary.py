"""English words for the Spanish and Portuguese words of questions about business software,
added to the words a question is searched by: code, comments and screens of most code
bases are in English, and a question in another language would otherwise match them by
meaning only (whose cross-language reach is weak for single words such as "hogar").

The vocabulary is the general one of business applications — records, customers,
accounts, payments, policies, screens, files — not any one code base's.
"""

from __future__ import annotations

from vigia.language import fold, words

_PAIRS = """
alta:add,insert,create altas:add,insert baja:delete,remove bajas:delete borrar:delete
borrado:delete eliminar:delete,remove apagar:delete excluir:delete,remove
consultar:inquiry,query,read consulta:inquiry,query consultas:inquiry,query
buscar:search,find busca:search,find
buscar:search pesquisar:search pesquisa:search modificar:update,modify modifica:update,modify
modificacion:update alterar:update,change alteracao:update,change actualizar:update
actualizacion:update atualizar:update atualizacao:update cambiar:change cambia:change
mudar:change crear:create criar:create nuevo:new nueva:new novo:new nova:new grabar:write,save
gravar:write,save escribir:write escrever:write leer:read ler:read guardar:save,store
almacenar:store armazenar:store calcular:compute,calculate calcula:compute,calculate
calculo:computation,calculation validar:validate valida:validate verificar:check,verify
comprobar:check,verify comprueba:check,verify checar:check imprimir:print impresion:print
enviar:send recibir:receive receber:receive mostrar:display,show muestra:display,show
pantalla:screen,map tela:screen,map menu:menu campo:field campos:fields registro:record
registros:records fichero:file ficheros:files archivo:file archivos:files arquivo:file
arquivos:files tabla:table tablas:tables tabela:table tabelas:tables cola:queue fila:queue
lista:list listado:report,list informe:report relatorio:report cliente:customer,client
clientes:customers,clients usuario:user usuarios:users utilizador:user senha:password
contrasena:password clave:key,password chave:key cuenta:account cuentas:accounts
conta:account contas:accounts tarjeta:card tarjetas:cards cartao:card cartoes:cards
saldo:balance saldos:balances pago:payment pagos:payments pagamento:payment
pagamentos:payments importe:amount importes:amounts monto:amount valor:value,amount
valores:values precio:price preco:price tasa:rate taxa:rate,fee interes:interest
juro:interest juros:interest comision:commission,fee comissao:commission,fee
prestamo:loan prestamos:loans emprestimo:loan emprestimos:loans credito:credit
debito:debit factura:invoice,bill facturas:invoices fatura:invoice,bill faturas:invoices
poliza:policy polizas:policies apolice:policy apolices:policies seguro:insurance
seguros:insurance siniestro:claim siniestros:claims sinistro:claim sinistros:claims
reclamacion:claim hogar:house,home vivienda:house casa:house,home residencial:house,home
automovil:motor,car coche:car,motor carro:car,motor vehiculo:vehicle,motor veiculo:vehicle,motor
vida:life comercial:commercial empresa:company,business negocio:business negocios:business
direccion:address endereco:address telefono:phone telefone:phone correo:email,mail
nombre:name nome:name apellido:surname,name fecha:date fechas:dates data:date nacimiento:birth
nascimento:birth edad:age idade:age numero:number numeros:numbers codigo:code codigos:codes
postal:postal,postcode,zip error:error errores:errors erro:error erros:errors mensaje:message
mensajes:messages mensagem:message mensagens:messages aviso:warning,message estado:status,state
situacao:status transaccion:transaction transacciones:transactions transacao:transaction
transacoes:transactions operacion:operation operacao:operation lote:batch proceso:process
processo:process diario:daily mensual:monthly mensal:monthly anual:yearly,annual
empleado:employee empleados:employees funcionario:employee funcionarios:employees
salario:salary,pay sueldo:salary,pay nomina:payroll folha:payroll impuesto:tax impuestos:taxes
imposto:tax impostos:taxes descuento:discount,deduction desconto:discount,deduction
producto:product produto:product pedido:order pedidos:orders inventario:inventory
estoque:stock,inventory existencias:stock almacen:warehouse armazem:warehouse envio:shipment
entrega:delivery proveedor:supplier fornecedor:supplier contrasenas:passwords
inicial:initial estadistica:statistics estadisticas:statistics estatistica:statistics
estatisticas:statistics contador:counter contadores:counters monitor:monitor
periodicamente:periodic,repeating bloqueo:lock bloqueio:lock carga:load
"""

GLOSSARY: dict[str, tuple[str, ...]] = {
    source: tuple(targets.split(","))
    for pair in _PAIRS.split()
    for source, _, targets in [pair.partition(":")]
}


def english_words(text: str) -> list[str]:
    """English equivalents of the Spanish and Portuguese words of ``text``, in order."""
    found: list[str] = []
    for word in words(fold(text)):
        for target in GLOSSARY.get(word, ()):
            if target not in found:
                found.append(target)
    return found
