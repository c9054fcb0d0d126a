/* tests/sampling/t-nosize.sh: a hand-written function whose symbol has no
 * .size (and no CFI: a leaf that keeps its return address at the top of
 * the stack), as libsodium's sandy2x ladder.S: spin(n) multiplies n times. */
	.text
	.globl	spin
	.type	spin, @function
spin:
	mov	%rdi, %rax
1:	imul	$3, %rax, %rax
	dec	%rdi
	jnz	1b
	ret
	.globl	after
	.type	after, @function
after:
	ret
	.size	after, .-after
	.section .note.GNU-stack,"",@progbits
