import dataclasses
from tests.knowledge.test_answers import PASSAGES
from vigia.llm import embedded
from vigia.llm.protocol import ModelRequest
from vigia.embeddings import get_embedder

def test_x():
    un=[dataclasses.replace(p, score=0.1) for p in PASSAGES]
    e = get_embedder("use")
    print(type(e), e._model)
    q = e.queries(['¿Quién ganó el mundial de 1986?'])[0]
    print(e.passages(["En caso de robo total"]) @ q)
    r=ModelRequest(instructions='', message='¿Quién ganó el mundial de 1986?', passages=un)
    print(embedded._from_passages(r))
    assert 0
