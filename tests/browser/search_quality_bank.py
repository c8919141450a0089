# ruff: noqa: RUF001, RUF002, E501  (Turkish and Chinese test content, one query a line)
"""The search-quality bank: the sample bank (content/) plus a JavaScript field written for
search, with realistic Turkish morphology (değişkenlerinin, sınıfları, dizinin, sayılarla,
olayı, Promise'lerden, özellikle next to özellikleri) and unsegmented Chinese (变量被提升, 类
inside 子类 and 类型, 原 inside 原型 and 原数组), and the queries a reader types, each with the
questions that answer it (by file name). ``test_search_quality.py`` types them into the
site's search box.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent.parent

FIELD = {
    "name": {"en": "Frontend Engineer", "tr": "Frontend Mühendisi", "zh": "前端工程师"},
    "specializations": {
        "javascript": {
            "name": {"en": "JavaScript", "tr": "JavaScript", "zh": "JavaScript"},
            "topics": {
                "language": {
                    "name": {"en": "The language", "tr": "Dil", "zh": "语言基础"},
                },
                "runtime": {
                    "name": {
                        "en": "Runtime and events",
                        "tr": "Çalışma ortamı",
                        "zh": "运行时与事件",
                    },
                },
            },
        }
    },
}

# slug: (topic, en, tr, zh prompts, en, tr, zh "assesses" texts)
_Q = tuple[str, str, str, str, str, str, str]
QUESTIONS: dict[str, _Q] = {
    "var-hoisting": (
        "language",
        "What does `console.log(x)` print when `var x = 1` comes after the call? "
        "Variables declared with var are hoisted.",
        "Çağrıdan sonra gelen `var x = 1` için `console.log(x)` ne yazdırır? "
        "var ile tanımlanan değişkenlerin bildirimleri yukarı taşınır.",
        "在调用之后才写 `var x = 1`，`console.log(x)` 会输出什么？用 var 声明的变量被提升到函数顶部。",
        "Whether the candidate knows that the declaration moves up but not the value.",
        "Adayın bildirimin yukarı taşındığını ama değerin taşınmadığını bilip bilmediği.",
        "考察是否知道声明会提升而赋值不会。",
    ),
    "let-tdz": (
        "language",
        "Why does reading a let binding before its declaration throw a ReferenceError?",
        "Bir let değişkenini bildiriminden önce okumak neden ReferenceError verir?",
        "为什么在声明之前读取 let 绑定会抛出 ReferenceError？",
        "The temporal dead zone between the start of the block and the declaration.",
        "Bloğun başı ile bildirim arasındaki geçici ölü bölge.",
        "块开头到声明之间的暂时性死区。",
    ),
    "const-object": (
        "language",
        "Can you change a property of an object declared with const?",
        "const ile tanımlanan bir nesnenin özelliklerini değiştirebilir misiniz?",
        "用 const 声明的对象，其属性可以修改吗？",
        "const fixes the binding, not the object; Object.freeze fixes the object.",
        "const bağlamayı sabitler, nesneyi değil; nesneyi Object.freeze sabitler.",
        "const 固定的是绑定而不是对象本身；Object.freeze 才会冻结对象。",
    ),
    "closure-loop": (
        "language",
        "What's the output?\n\n```js\nfor (var i = 0; i < 3; i++) {\n"
        "  setTimeout(() => console.log(i), 1);\n}\n```",
        "Çıktı nedir?\n\n```js\nfor (var i = 0; i < 3; i++) {\n"
        "  setTimeout(() => console.log(i), 1);\n}\n```",
        "输出是什么？\n\n```js\nfor (var i = 0; i < 3; i++) {\n"
        "  setTimeout(() => console.log(i), 1);\n}\n```",
        "var has function scope, so the three closures share one i and print 3 three times.",
        "var fonksiyon kapsamlıdır; üç kapanış aynı i değişkenini paylaşır ve üç kez 3 yazar.",
        "var 是函数作用域，三个闭包共享同一个 i，所以打印三次 3。",
    ),
    "scope-chain": (
        "language",
        "How does a name resolve through the scope chain? Inner scope, outer scope, module "
        "scope, global scope: which scope wins, and where does the lookup of a scope stop?",
        "Bir isim kapsam zinciri üzerinden nasıl çözülür? İç kapsam mı dış kapsam mı kazanır?",
        "变量名如何沿作用域链解析？内层作用域和外层作用域哪个优先？",
        "Lexical scope: the nearest enclosing scope that declares the name.",
        "Sözcüksel kapsam: ismi tanımlayan en yakın kapsam.",
        "词法作用域：最近的声明该名称的作用域。",
    ),
    "block-scope": (
        "language",
        "Which declarations are limited to the block they appear in?",
        "Hangi bildirimler içinde bulundukları blokla sınırlıdır?",
        "哪些声明只在所在的块中有效？",
        "let, const and class are block scoped; var is not.",
        "let, const ve class blok kapsamlıdır; var değildir.",
        "let、const 和 class 具有块级作用域，var 没有。",
    ),
    "use-strict": (
        "language",
        "What changes when a file starts with 'use strict'?",
        "Bir dosya 'use strict' ile başladığında ne değişir?",
        "文件以 'use strict' 开头时会有什么变化？",
        "Strict code throws on assignments to undeclared names and forbids with.",
        "Katı kod, bildirilmemiş isimlere atamada hata fırlatır ve with kullanımını yasaklar.",
        "严格模式下给未声明的变量赋值会抛错，并禁止使用 with。",
    ),
    "garbage-collected": (
        "runtime",
        "When is an object garbage collected in JavaScript?",
        "JavaScript'te bir nesne çöp toplayıcı tarafından ne zaman toplanır?",
        "JavaScript 中的对象什么时候会被垃圾回收？",
        "Reachability from the roots, not reference counts.",
        "Köklerden erişilebilirlik; referans sayımı değil.",
        "是否能从根对象访问到，而不是引用计数。",
    ),
    "weakmap-keys": (
        "runtime",
        "Why does a WeakMap not keep its keys alive?",
        "Bir WeakMap anahtarlarını neden canlı tutmaz?",
        "为什么 WeakMap 不会让它的键一直存活？",
        "The garbage collector may reclaim a key that nothing else references.",
        "Başka hiçbir şeyin başvurmadığı bir anahtarı çöp toplayıcı geri alabilir.",
        "没有其他引用的键可以被垃圾回收器回收。",
    ),
    "class-sugar": (
        "language",
        "What does the class keyword add over plain prototypes?",
        "class anahtar kelimesi düz prototiplere göre ne ekler? Sınıflar aslında nedir?",
        "class 关键字相比普通原型增加了什么？类本质上是什么？",
        "Classes are mostly syntax over prototypes, plus strict mode and private fields.",
        "Sınıflar çoğunlukla prototipler üzerine bir sözdizimidir.",
        "类基本上是原型之上的语法糖。",
    ),
    "private-fields": (
        "language",
        "How do private class fields (`#count`) differ from hiding state in a closure?",
        "Sınıfların özel alanları (`#count`) durumu bir kapanışta saklamaktan nasıl farklıdır?",
        "类的私有字段（`#count`）与用闭包隐藏状态有什么不同？",
        "Per-instance, checked by the engine, visible to methods of the class only.",
        "Örnek başınadır, motor tarafından denetlenir.",
        "每个实例一份，由引擎检查，只有该类的方法可以访问。",
    ),
    "prototype-chain": (
        "language",
        "What does `Object.getPrototypeOf(obj)` return, and where does the prototype chain end?",
        "`Object.getPrototypeOf(obj)` ne döndürür ve prototip zincirinin sonu nedir?",
        "`Object.getPrototypeOf(obj)` 返回什么？原型链的终点在哪里？",
        "Object.prototype, whose prototype is null.",
        "Object.prototype; onun prototipi null'dır.",
        "Object.prototype，它的原型是 null。",
    ),
    "array-sort": (
        "language",
        "Why does `[10, 9, 1].sort()` return `[1, 10, 9]`?",
        "`[10, 9, 1].sort()` neden `[1, 10, 9]` döndürür? Dizinin elemanları nasıl karşılaştırılır?",
        "为什么 `[10, 9, 1].sort()` 返回 `[1, 10, 9]`？数组元素是怎样比较的？",
        "Without a compare function, elements are compared as strings, not numbers.",
        "Karşılaştırma fonksiyonu verilmezse elemanlar sayı olarak değil, metin olarak sıralanır.",
        "不传比较函数时，元素按字符串而不是数字比较。",
    ),
    "array-copy": (
        "language",
        "How do you copy an array without mutating the original?",
        "Orijinal diziyi değiştirmeden bir dizinin kopyası nasıl alınır?",
        "如何在不修改原数组的情况下复制一个数组？",
        "Spread, slice or Array.from make shallow copies; structuredClone a deep one.",
        "Yayma, slice veya Array.from sığ kopya üretir.",
        "展开语法、slice 或 Array.from 生成浅拷贝。",
    ),
    "float-sum": (
        "language",
        "Why is `0.1 + 0.2 === 0.3` false?",
        "`0.1 + 0.2 === 0.3` neden false döner? Sayılar bellekte nasıl saklanır?",
        "为什么 `0.1 + 0.2 === 0.3` 为 false？数字在内存中如何存储？",
        "Numbers are IEEE 754 binary floating point; 0.1 has no exact form.",
        "Sayılar ikili kayan noktalı olarak saklanır; 0.1'in tam karşılığı yoktur.",
        "数字以 IEEE 754 二进制浮点数存储，0.1 无法精确表示。",
    ),
    "nan-test": (
        "language",
        "How do you test whether a value is NaN?",
        "Bir değerin NaN olup olmadığını nasıl test edersiniz?",
        "如何判断一个值是不是 NaN？",
        "Number.isNaN; NaN is the only value not equal to itself.",
        "Number.isNaN; NaN kendisine eşit olmayan tek sayıdır.",
        "使用 Number.isNaN；NaN 是唯一不等于自身的值。",
    ),
    "event-bubbling": (
        "runtime",
        "What is event bubbling, and how do you stop an event from reaching the parent?",
        "Olay kabarcıklanması nedir ve bir olayın üst elemana ulaşması nasıl durdurulur?",
        "什么是事件冒泡？如何阻止事件传到父元素？",
        "stopPropagation stops bubbling; preventDefault is something else.",
        "stopPropagation kabarcıklanmayı durdurur; preventDefault başka bir şeydir.",
        "stopPropagation 阻止冒泡；preventDefault 是另一回事。",
    ),
    "event-delegation": (
        "runtime",
        "Why attach one listener to a list instead of one to each item?",
        "Olayları her öğe yerine tek bir listede dinlemek neden daha iyidir?",
        "为什么把一个监听器绑定在列表上，而不是每一项都绑定一个？",
        "Delegation: fewer listeners, and items added later are covered.",
        "Olay delegasyonu: daha az dinleyici ve sonradan eklenen öğeler de kapsanır.",
        "事件委托：监听器更少，后来添加的项也能处理。",
    ),
    "timeout-vs-then": (
        "runtime",
        "In what order do a setTimeout callback and the then of a resolved Promise run?",
        "Bir setTimeout geri çağrısı ile çözülmüş bir Promise'in then'i hangi sırayla çalışır?",
        "setTimeout 回调和已兑现 Promise 的 then 按什么顺序执行？",
        "Microtasks (then) run before the next task (the timeout).",
        "Mikro görevler (then) bir sonraki görevden (zamanlayıcı) önce çalışır.",
        "微任务（then）先于下一个宏任务（定时器）执行。",
    ),
    "promise-all-reject": (
        "runtime",
        "What does Promise.all do when one of the promises rejects?",
        "Promise'lerden biri reddedilirse Promise.all ne yapar?",
        "当其中一个 Promise 被拒绝时，Promise.all 会怎样？",
        "It rejects at once with that reason; allSettled waits for all.",
        "Hemen o nedenle reddedilir; allSettled hepsini bekler.",
        "它会立即以该原因拒绝；allSettled 会等待全部完成。",
    ),
    "async-errors": (
        "runtime",
        "How do you handle errors with async and await?",
        "async ve await ile hatalar nasıl yakalanır?",
        "如何在 async/await 中处理错误？",
        "try/catch around await, or .catch on the returned promise.",
        "await çevresinde try/catch ya da dönen söz üzerinde .catch.",
        "在 await 外面包 try/catch，或在返回的 promise 上调用 .catch。",
    ),
    "arrow-this": (
        "language",
        "What is `this` inside an arrow function?",
        "Ok fonksiyonlarının içinde `this` neyi gösterir?",
        "箭头函数中的 `this` 指向什么？",
        "The this of the enclosing scope; arrow functions have none of their own.",
        "Çevreleyen kapsamın this değeri; ok fonksiyonlarının kendi this'i yoktur.",
        "外层作用域的 this；箭头函数没有自己的 this。",
    ),
    "loose-equality": (
        "language",
        "What is the difference between `==` and `===`?",
        "`==` ile `===` arasındaki fark nedir?",
        "`==` 和 `===` 有什么区别？",
        "== converts types before comparing; === does not.",
        "== karşılaştırmadan önce tür dönüşümü yapar; === yapmaz.",
        "== 比较前会进行类型转换，=== 不会。",
    ),
    "typeof-null": (
        "language",
        "Why does `typeof null` return 'object'?",
        "`typeof null` neden 'object' döndürür?",
        "为什么 `typeof null` 返回 'object'？",
        "A bug kept from the first implementation for compatibility.",
        "İlk gerçekleştirmeden kalan ve uyumluluk için korunan bir hata.",
        "这是最早实现遗留下来、为了兼容而保留的错误。",
    ),
    "swap-destructuring": (
        "language",
        "Which ES2015 feature is especially handy for swapping two variables?",
        "İki değişkenin değerini takas etmek için özellikle hangi ES2015 yeniliği kullanışlıdır?",
        "交换两个变量的值时，哪个 ES2015 特性特别方便？",
        "Array destructuring: [a, b] = [b, a].",
        "Dizi ayrıştırma: [a, b] = [b, a].",
        "数组解构：[a, b] = [b, a]。",
    ),
    "list-properties": (
        "language",
        "How do you list the properties of an object, and which ones does for...in include?",
        "Bir nesnenin özelliklerini listelemenin yolları nelerdir? for...in hangilerini içerir?",
        "如何列出一个对象的属性？for...in 会包含哪些？",
        "Object.keys gives own enumerable properties; for...in adds inherited ones.",
        "Object.keys kendi sayılabilir özellikleri verir; for...in kalıtılanları da ekler.",
        "Object.keys 返回自身可枚举属性；for...in 还包括继承的属性。",
    ),
    "bigint": (
        "language",
        "When do you need BigInt for large integers?",
        "Büyük sayılarla çalışırken BigInt ne zaman gerekir?",
        "处理大整数时什么时候需要 BigInt？",
        "Beyond Number.MAX_SAFE_INTEGER integers lose precision.",
        "Number.MAX_SAFE_INTEGER'ı aşan tam sayılar hassasiyet kaybeder.",
        "超过 Number.MAX_SAFE_INTEGER 的整数会丢失精度。",
    ),
    "event-loop-microtasks": (
        "runtime",
        "When does the event loop run queued microtasks?",
        "Olay döngüsü sıradaki mikro görevleri ne zaman çalıştırır?",
        "事件循环什么时候执行排队的微任务？",
        "After each task, until the microtask queue is empty.",
        "Her görevden sonra, mikro görev kuyruğu boşalana kadar.",
        "每个宏任务结束后，直到微任务队列清空。",
    ),
    "closure-memory": (
        "runtime",
        "Why can a closure keep memory alive longer than expected?",
        "Bir kapanış belleği neden beklenenden uzun süre tutabilir?",
        "为什么闭包可能让内存比预期更久无法释放？",
        "It retains every variable of its scope that it may use, and timers keep it alive.",
        "Kapsamındaki değişkenleri tutar; zamanlayıcılar da onu canlı tutar.",
        "它会保留作用域中可能用到的变量，定时器也会让它一直存活。",
    ),
    "function-hoisting": (
        "language",
        "Are function declarations hoisted the same way as var?",
        "Fonksiyon bildirimleri var gibi yukarı taşınır mı?",
        "函数声明会像 var 一样被提升吗？",
        "The whole function is hoisted, not only its name.",
        "Yalnızca adı değil, fonksiyonun tamamı taşınır.",
        "整个函数都会被提升，而不只是名字。",
    ),
    "super-constructor": (
        "language",
        "How does a subclass call the constructor of its parent class?",
        "Bir alt sınıf, üst sınıfının yapıcısını nasıl çağırır?",
        "子类如何调用父类的构造函数？",
        "super(...) before using this in the constructor.",
        "Yapıcıda this kullanmadan önce super(...).",
        "在构造函数中使用 this 之前调用 super(...)。",
    ),
    "map-vs-foreach": (
        "language",
        "What is the difference between map and forEach on arrays?",
        "Dizilerde map ile forEach arasındaki fark nedir?",
        "数组的 map 和 forEach 有什么区别？",
        "map returns a new array; forEach returns undefined.",
        "map yeni bir dizi döndürür; forEach undefined döndürür.",
        "map 返回新数组，forEach 返回 undefined。",
    ),
    "directory-listing": (
        "runtime",
        "How do you list the files of a folder in Node.js?",
        "Node.js'te bir dizindeki dosyalar nasıl listelenir?",
        "在 Node.js 中如何列出一个文件夹里的文件？",
        "fs.readdir or fs.promises.readdir.",
        "fs.readdir veya fs.promises.readdir.",
        "使用 fs.readdir 或 fs.promises.readdir。",
    ),
    "dom-events": (
        "runtime",
        "Which event fires when the DOM is ready but images may still load?",
        "DOM hazır olduğunda ama resimler hâlâ yüklenirken hangi olay tetiklenir?",
        "DOM 已就绪但图片可能仍在加载时，会触发哪个事件？",
        "DOMContentLoaded; load waits for images.",
        "DOMContentLoaded; load olayı resimleri bekler.",
        "DOMContentLoaded；load 事件会等待图片。",
    ),
}

# The garbage collection question with options and an explanation (a choice question).
CHOICE = {
    "garbage-collected": {
        "options": {
            "a": {
                "en": "When no chain of references from a root reaches it",
                "tr": "Hiçbir kökten ona ulaşan bir referans zinciri kalmadığında",
                "zh": "当没有任何从根对象出发的引用链能到达它时",
            },
            "b": {
                "en": "As soon as its reference count drops to zero",
                "tr": "Referans sayısı sıfıra düştüğü anda",
                "zh": "一旦它的引用计数降为零",
            },
        },
        "answer": "a",
        "difficulty": 2,
        "explanation": {
            "en": "Modern engines (V8's Orinoco, for one) use tracing garbage collection: two "
            "objects that reference each other are still collected when nothing else reaches them.",
            "tr": "Modern motorlar izleyen çöp toplama kullanır: birbirine başvuran iki nesne, "
            "başka hiçbir şey onlara ulaşmıyorsa yine toplanır.",
            "zh": "现代引擎使用追踪式垃圾回收：互相引用的两个对象，如果没有其他对象能到达它们，"
            "仍然会被回收。",
        },
    }
}

# Queries per locale: (query, expected question file names). Every failure of issue 16 is here:
# Turkish typed without Turkish letters or in capitals, Turkish suffixes (apostrophe ones too),
# words that only partly match, Chinese words apart in the text and single characters.
QUERIES: dict[str, list[tuple[str, list[str]]]] = {
    "en": [
        ("strict mode", ["use-strict"]),
        ("garbage collection", ["garbage-collected", "weakmap-keys"]),
        ("scope", ["scope-chain", "block-scope", "closure-loop", "arrow-this", "closure-memory"]),
        ("hoisting", ["var-hoisting", "function-hoisting"]),
        ("closures", ["closure-loop", "private-fields", "closure-memory"]),
        ("console.log", ["closure-loop", "var-hoisting"]),
        ("promise rejects", ["promise-all-reject"]),
        ("event loop", ["event-loop-microtasks"]),
        ("NaN", ["nan-test"]),
        ("typeof null", ["typeof-null"]),
        ("prototype chain", ["prototype-chain", "class-sugar"]),
        ("private fields", ["private-fields"]),
        ("sort numbers", ["array-sort"]),
        ("copy an array", ["array-copy"]),
        ("floating point", ["float-sum"]),
        ("arrow function this", ["arrow-this"]),
        ("bubbling", ["event-bubbling"]),
        ("delegation", ["event-delegation"]),
        ("async await errors", ["async-errors"]),
        ("BigInt", ["bigint"]),
        ("WeakMap", ["weakmap-keys"]),
        ("swapping variables", ["swap-destructuring"]),
        ("subclass constructor", ["super-constructor"]),
        ("cache stampede", ["cache-stampede", "design-product-cache", "hot-key-mitigation"]),
        ("deadlock", ["deadlock-lock-ordering"]),
        ("kv cache memory", ["kv-cache-size"]),
    ],
    "tr": [
        (
            "degisken",
            ["var-hoisting", "let-tdz", "closure-loop", "swap-destructuring", "closure-memory"],
        ),
        (
            "DEGISKEN",
            ["var-hoisting", "let-tdz", "closure-loop", "swap-destructuring", "closure-memory"],
        ),
        (
            "değişkenlerin",
            ["var-hoisting", "let-tdz", "closure-loop", "swap-destructuring", "closure-memory"],
        ),
        ("sinif", ["class-sugar", "private-fields", "super-constructor"]),
        ("SINIF", ["class-sugar", "private-fields", "super-constructor"]),
        ("sınıfları", ["class-sugar", "private-fields", "super-constructor"]),
        ("dizi", ["array-sort", "array-copy", "map-vs-foreach", "swap-destructuring"]),
        ("dizinin", ["array-sort", "array-copy", "map-vs-foreach", "swap-destructuring"]),
        ("sayı", ["float-sum", "nan-test", "bigint", "array-sort"]),
        ("sayılar", ["float-sum", "nan-test", "bigint", "array-sort"]),
        ("olay", ["event-bubbling", "event-delegation", "event-loop-microtasks", "dom-events"]),
        ("olayı", ["event-bubbling", "event-delegation", "event-loop-microtasks", "dom-events"]),
        ("özellikleri", ["const-object", "list-properties"]),
        ("Promise'ler", ["timeout-vs-then", "promise-all-reject"]),
        ("Promise", ["timeout-vs-then", "promise-all-reject"]),
        ("kapsam", ["scope-chain", "block-scope", "closure-loop", "arrow-this", "closure-memory"]),
        ("kapanış", ["closure-loop", "private-fields", "closure-memory"]),
        ("cop toplayici", ["garbage-collected", "weakmap-keys"]),
        ("çöp toplayıcı", ["garbage-collected", "weakmap-keys"]),
        ("use strict", ["use-strict"]),
        ("İKİ DEĞİŞKEN", ["swap-destructuring"]),
        ("ok fonksiyonu", ["arrow-this"]),
        ("mikro görev", ["event-loop-microtasks", "timeout-vs-then"]),
        ("yukarı taşınır", ["var-hoisting", "function-hoisting"]),
        ("trend ürünleri", ["cache-stampede"]),
    ],
    "zh": [
        ("变量提升", ["var-hoisting", "function-hoisting"]),
        ("类", ["class-sugar", "private-fields", "super-constructor", "loose-equality"]),
        ("原型", ["class-sugar", "prototype-chain"]),
        ("原", ["class-sugar", "prototype-chain", "array-copy"]),
        ("数组", ["array-sort", "array-copy", "map-vs-foreach", "swap-destructuring"]),
        ("闭包", ["closure-loop", "private-fields", "closure-memory"]),
        ("事件冒泡", ["event-bubbling"]),
        ("事件循环", ["event-loop-microtasks"]),
        ("垃圾回收", ["garbage-collected", "weakmap-keys"]),
        ("严格模式", ["use-strict"]),
        ("暂时性死区", ["let-tdz"]),
        ("浮点数", ["float-sum"]),
        ("箭头函数", ["arrow-this"]),
        ("Promise", ["timeout-vs-then", "promise-all-reject", "async-errors"]),
        ("作用域链", ["scope-chain"]),
        ("私有字段", ["private-fields"]),
        ("微任务", ["event-loop-microtasks", "timeout-vs-then"]),
        ("构造函数", ["super-constructor"]),
        ("类型转换", ["loose-equality"]),
        ("大整数", ["bigint"]),
        ("列出属性", ["list-properties"]),
        ("事件委托", ["event-delegation"]),
        ("CPU 飙升", ["cache-stampede"]),
    ],
}


def question(slug: str, number: int) -> dict[str, Any]:
    """The YAML data of one question of the JavaScript field."""
    _topic, en, tr, zh, a_en, a_tr, a_zh = QUESTIONS[slug]
    data: dict[str, Any] = {
        "id": f"01b05d13-8d21-739a-baa2-7dab67be{6000 + number:04d}",
        "seniority": "mid",
        "prompt": {"en": en, "tr": tr, "zh": zh},
    }
    if slug in CHOICE:
        data.update(CHOICE[slug])
    else:
        data["assesses"] = {"en": a_en, "tr": a_tr, "zh": a_zh}
    return data


def write_quality_bank(root: Path) -> Path:
    """The sample bank copied to ``root`` with the JavaScript field added; returns ``root``."""
    shutil.copytree(ROOT / "content", root)
    catalog_path = root / "catalog.yaml"
    catalog = yaml.safe_load(catalog_path.read_text("utf-8"))
    catalog["fields"]["frontend-engineer"] = FIELD
    catalog_path.write_text(yaml.safe_dump(catalog, allow_unicode=True, sort_keys=False), "utf-8")
    for number, slug in enumerate(QUESTIONS):
        path = root / "frontend-engineer" / QUESTIONS[slug][0] / f"{slug}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        text = yaml.safe_dump(question(slug, number), allow_unicode=True, sort_keys=False)
        path.write_text(text, "utf-8")
    return root


def ids_by_slug(root: Path) -> dict[str, str]:
    """Question id by file name (without .yaml) for every question under ``root``."""
    found = {}
    for path in root.rglob("*.yaml"):
        if path.name == "catalog.yaml":
            continue
        data = yaml.safe_load(path.read_text("utf-8"))
        if isinstance(data, dict) and "id" in data:
            found[path.stem] = str(data["id"])
    return found
